/// Appending text to a byte buffer without building intermediate strings:
/// the log record and the export formats are written a line at a time on
/// the per-fix path, so they go straight to UTF-8 bytes.
enum ByteText {
    /// Appends the UTF-8 of `text`.
    @inline(__always)
    static func append(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    /// Appends a signed integer in decimal.
    static func append(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        FixedDecimal.appendDecimal(UInt64(value.magnitude), to: &out)
    }

    /// Appends a quoted, escaped JSON string (RFC 8259: `"`, `\` and control characters escaped).
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
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
    static func appendXML(_ text: String, to out: inout [UInt8]) {
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
    static func appendUTC(_ seconds: Double, fractionDigits: Int = 3, to out: inout [UInt8]) {
        let digits = max(0, min(9, fractionDigits))
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let clamped = seconds.isFinite ? min(max(seconds, UTCTime.earliest), UTCTime.latest) : 0
        let ticks = Int64((clamped * Double(scale)).rounded())
        var whole = ticks / scale
        var fraction = ticks % scale
        if fraction < 0 {
            fraction += scale
            whole -= 1
        }
        let dayNumber = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - dayNumber * 86_400
        let (year, month, day) = UTCTime.civil(days: Int(dayNumber))
        if year < 0 { out.append(UInt8(ascii: "-")) }
        FixedDecimal.appendDecimal(UInt64(year.magnitude), width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        FixedDecimal.appendDecimal(UInt64(month), width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        FixedDecimal.appendDecimal(UInt64(day), width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        FixedDecimal.appendDecimal(UInt64(secondOfDay / 3600), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        FixedDecimal.appendDecimal(UInt64(secondOfDay / 60 % 60), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        FixedDecimal.appendDecimal(UInt64(secondOfDay % 60), width: 2, to: &out)
        if digits > 0 {
            out.append(UInt8(ascii: "."))
            FixedDecimal.appendDecimal(UInt64(fraction), width: digits, to: &out)
        }
        out.append(UInt8(ascii: "Z"))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

extension UTCTime {
    /// 0000-01-01T00:00:00Z, the earliest time the ISO 8601 text here can carry.
    static let earliest: Double = -62_167_219_200
    /// 9999-12-31T23:59:59.999Z, the latest.
    static let latest: Double = 253_402_300_799.999

    /// Whether `seconds` can be written as four-digit-year ISO 8601 text.
    static func isWritable(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds >= earliest && seconds <= latest
    }
}
