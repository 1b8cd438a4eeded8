/// A string a peer chose (a desktop id, a bus or unit name, a process name,
/// an agent's path, text a client sent), made safe to show: whatever reaches
/// a terminal, a journal line, a prompt or a saved file's human text goes
/// through `escaped` first, as systemd's `cescape` does.
///
/// Printable text, non-ASCII letters included, stays as it is. A backslash
/// is `\\`; a newline, tab and carriage return are `\n`, `\t`, `\r`; every
/// other control character (C0, ESC, DEL, C1), a format character (the
/// bidirectional overrides, zero-width joiners), a line or paragraph
/// separator, and a byte that is not UTF-8 are `\xNN`, one per byte. So the
/// escaped text is one line that cannot move the cursor, clear the screen or
/// pass for another line, and the original can be read back from it.
public enum PeerText {
    /// `text` escaped: one printable line.
    public static func escaped(_ text: String) -> String {
        // The common case, a name of plain printable ASCII, is returned as it is.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) { return text }
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// Whole text (a rendered screen, a journal message) with its line breaks and tabs kept and
    /// every other hidden character (`isHidden`) escaped: the last guard before a terminal or the journal,
    /// for whatever a caller did not escape as a field. Backslashes are left as they are.
    public static func printable(_ text: String) -> String {
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }) { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar != "\n" && scalar != "\t" && isHidden(scalar) { append(scalar, to: &out) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// `text` escaped, and cut after `limit` bytes of it (`…` and the full length said) so a
    /// journal line stays short whatever a peer sent.
    public static func escaped(_ text: String, limit: Int) -> String {
        let count = text.utf8.count
        guard count > limit else { return escaped(text) }
        return escaped(bytes: text.utf8.prefix(limit)) + "… (\(count) bytes)"
    }

    /// `bytes` (UTF-8 or not: a process's `comm`, a cgroup's name) escaped; a byte that is not part
    /// of a well-formed UTF-8 sequence is `\xNN`.
    public static func escaped<Bytes: Collection>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        var out = ""
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decode(bytes, at: i) {
                append(scalar, to: &out)
                i += length
            } else {
                appendHex(bytes[i], to: &out)
                i += 1
            }
        }
        return out
    }

    /// Whether `scalar` is shown as `\xNN` bytes (or a short escape) rather than itself.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: true
        default: false
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        switch scalar {
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        case _ where scalar.value >= 0x20 && scalar.value < 0x7F: out.unicodeScalars.append(scalar)
        case _ where isHidden(scalar): for byte in String(scalar).utf8 { appendHex(byte, to: &out) }
        default: out.unicodeScalars.append(scalar)
        }
    }

    private static func appendHex(_ byte: UInt8, to out: inout String) {
        let digits = Array("0123456789abcdef".unicodeScalars)
        out += "\\x"
        out.unicodeScalars.append(digits[Int(byte >> 4)])
        out.unicodeScalars.append(digits[Int(byte & 0xF)])
    }

    /// The scalar a well-formed UTF-8 sequence at `i` encodes and its length; `nil` when there is none.
    private static func decode(_ bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[i]
        let length: Int
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, value) = (4, UInt32(lead & 0x07))
        default: return nil
        }
        guard i + length <= bytes.count else { return nil }
        for k in 1..<length {
            let byte = bytes[i + k]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        // Overlong forms and values past U+10FFFF are not UTF-8; `Unicode.Scalar` refuses surrogates.
        let least: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= least, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
