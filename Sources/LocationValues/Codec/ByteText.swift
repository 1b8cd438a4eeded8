/// Appending text to a byte buffer without building intermediate strings:
/// the log record and the export formats are written a line at a time on
/// the per-fix path, so they go straight to UTF-8 bytes.
@usableFromInline package enum ByteText {
    /// Appends the UTF-8 of `text`.
    @inlinable @inline(__always)
    package static func append(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    /// Appends the bytes of a constant: one copy, not a walk over a `String`'s UTF-8.
    @inlinable @inline(__always)
    package static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends a signed integer in decimal.
    package static func append(_ value: Int, to out: inout [UInt8]) {
        ByteCursor.append(to: &out, capacity: 20) { $0.putInteger(value) }
    }

    /// Whether `text` holds a byte `appendJSONString` escapes.
    package static func needsJSONEscape(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(where: escaped) } ?? text.utf8.contains(where: escaped)
    }

    /// Whether `appendJSONString` escapes `byte`.
    @inlinable @inline(__always)
    static func escaped(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Appends a quoted, escaped JSON string (RFC 8259: `"`, `\` and control characters escaped).
    package static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Nothing to escape (a client's name or a device path, as a rule): one pass over the
        // string's own bytes, then one copy (every record names its device; the generic
        // `UTF8View` walk was 2 % of a replay).
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: escaped) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        switch copied {
        case true?:
            out.append(UInt8(ascii: "\""))
            return
        case nil where !needsJSONEscape(text):
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
            return
        default:
            break
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends text escaped for XML character data and attribute values.
    /// Characters XML 1.0 forbids (C0 controls other than tab, newline and
    /// carriage return) are dropped: no XML reader would accept them.
    package static func appendXML(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): append("&amp;", to: &out)
            case UInt8(ascii: "<"): append("&lt;", to: &out)
            case UInt8(ascii: ">"): append("&gt;", to: &out)
            case UInt8(ascii: "\""): append("&quot;", to: &out)
            case UInt8(ascii: "'"): append("&apos;", to: &out)
            case 0x09, 0x0A, 0x0D: out.append(byte)
            case 0..<0x20: continue
            default: out.append(byte)
            }
        }
    }

    /// Appends `2026-03-14T23:50:01.000Z`: UTC with `fractionDigits`
    /// decimals (0...9, default milliseconds), rounded to that precision.
    /// The one ISO 8601 writer: `UTCTime.format` is this as a `String`.
    /// Times outside years 0000...9999 are clamped, and a non-finite time is
    /// the epoch (callers validate first; this only keeps a bad value from trapping).
    package static func appendUTC(_ seconds: Double, fractionDigits: Int = 3, to out: inout [UInt8]) {
        ByteCursor.append(to: &out, capacity: maximumUTCLength) { writeUTC(seconds, fractionDigits: fractionDigits, to: &$0) }
    }

    /// Room for the longest text `writeUTC` produces (`0000-01-01T00:00:00.000000000Z`
    /// is 30 bytes; a year rounded up to 10000 has no decimals).
    static let maximumUTCLength = 32

    /// Writes the time as `appendUTC` appends it (at most `maximumUTCLength` bytes).
    /// Always inlined, so the log line's constant milliseconds fold away.
    @inlinable @inline(__always)
    package static func writeUTC(_ seconds: Double, fractionDigits: Int = 3, to cursor: inout ByteCursor) {
        let digits = max(0, min(9, fractionDigits))
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let clamped = seconds.isFinite ? min(max(seconds, UTCTime.earliest), UTCTime.latest) : 0
        let product = clamped * Double(scale)
        var whole: Int64
        var fraction: Int64
        if abs(product) < 9.0e18 {
            let ticks = Int64(product.rounded())
            whole = ticks / scale
            fraction = ticks % scale
            if fraction < 0 {
                fraction += scale
                whole -= 1
            }
        } else {
            // Nanoseconds past 2262 do not fit an Int64: round the part of the second alone.
            let second = clamped.rounded(.down)
            whole = Int64(second)
            fraction = Int64(((clamped - second) * Double(scale)).rounded())
            if fraction == scale {
                fraction = 0
                whole += 1
            }
        }
        let dayNumber = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = Int(whole - dayNumber * 86_400)
        let (year, month, day) = UTCTime.civil(days: Int(dayNumber))
        if year >= 0 && year < 10_000 {
            cursor.putTwoDigits(year / 100)
            cursor.putTwoDigits(year % 100)
        } else {
            // Rounding 9999-12-31T23:59:59.999 to whole seconds gives year 10000.
            if year < 0 { cursor.put(UInt8(ascii: "-")) }
            cursor.putDigits(UInt64(year.magnitude), minimumWidth: 4)
        }
        cursor.put(UInt8(ascii: "-"))
        cursor.putTwoDigits(month)
        cursor.put(UInt8(ascii: "-"))
        cursor.putTwoDigits(day)
        cursor.put(UInt8(ascii: "T"))
        cursor.putTwoDigits(secondOfDay / 3600)
        cursor.put(UInt8(ascii: ":"))
        cursor.putTwoDigits(secondOfDay / 60 % 60)
        cursor.put(UInt8(ascii: ":"))
        cursor.putTwoDigits(secondOfDay % 60)
        if digits > 0 {
            cursor.put(UInt8(ascii: "."))
            cursor.putDigits(UInt64(fraction), width: digits)
        }
        cursor.put(UInt8(ascii: "Z"))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

extension UTCTime {
    /// 0000-01-01T00:00:00Z, the earliest time the ISO 8601 text here can carry.
    @usableFromInline package static let earliest: Double = -62_167_219_200
    /// 9999-12-31T23:59:59.999Z, the latest.
    @usableFromInline package static let latest: Double = 253_402_300_799.999

    /// Whether `seconds` can be written as four-digit-year ISO 8601 text.
    package static func isWritable(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds >= earliest && seconds <= latest
    }
}
