extension JSONValue {
    /// The compact JSON text of this value (no spaces, no trailing newline).
    /// Non-finite numbers, which JSON cannot carry, are written as `null`;
    /// callers omit unknown values rather than relying on that.
    public var serialized: String {
        var out = ""
        out.reserveCapacity(64)
        write(to: &out)
        return out
    }

    /// Appends the compact JSON text of this value to `out`.
    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): JSONValue.writeNumber(n, to: &out)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, (k, v)) in o.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(k, to: &out)
                out += ":"
                v.write(to: &out)
            }
            out += "}"
        }
    }

    /// Writes a number: integers without a fraction, others in Swift's
    /// shortest round-tripping form.
    public static func writeNumber(_ n: Double, to out: inout String) {
        guard n.isFinite else {
            out += "null"
            return
        }
        if n == n.rounded(), abs(n) < 1e15 {
            out += String(Int64(n))
        } else {
            out += "\(n)"
        }
    }

    /// Writes a quoted, escaped JSON string (escaped as `ByteText.appendJSONString` escapes it).
    public static func writeString(_ s: String, to out: inout String) {
        guard ByteText.needsJSONEscape(s) else {
            out += "\""
            out += s
            out += "\""
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count + 8)
        ByteText.appendJSONString(s, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }
}
