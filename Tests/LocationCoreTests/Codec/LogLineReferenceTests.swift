import Glibc
import Testing
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// The log line's formatters (FixedDecimal, ByteText.appendUTC, LogRecord)
/// against references written independently of them: decimals rounded in
/// exact 128-bit integer arithmetic from the Double's bits, dates from libc's
/// `gmtime_r`, JSON built as a Swift `String`. Hundreds of thousands of
/// generated values, aimed at the edges: ties, carries, the decimal boundary,
/// the largest and smallest doubles, leap days, the epoch, years 0 and 9999.
@Suite struct LogLineReferenceTests {
    // MARK: references

    /// `value` rounded half away from zero to `decimals` places, computed from
    /// its exact binary value (sign × significand × 2^exponent) in integers;
    /// text as `FixedDecimal.format` promises: no `-0`, trailing zeros trimmed
    /// down to `minimumDecimals`, Swift's own text past the exact-integer
    /// range (a scaled magnitude of 4e15 or more), `nil` for NaN and infinities.
    static func referenceDecimal(_ value: Double, decimals: Int, minimumDecimals: Int? = nil) -> String? {
        guard value.isFinite else { return nil }
        let places = max(0, min(decimals, 9))
        var power: UInt128 = 1
        for _ in 0..<places { power *= 10 }
        guard abs(value * Double(power)) < 4.0e15 else { return "\(value)" }
        let biased = Int(value.exponentBitPattern)
        let significand = UInt128(value.significandBitPattern) | (biased == 0 ? 0 : UInt128(1) << 52)
        let exponent = (biased == 0 ? 1 : biased) - 1075  // value = significand × 2^exponent
        let numerator = significand * power  // < 2^83
        var units: UInt128
        if exponent >= 0 {
            units = numerator << UInt128(exponent)
        } else if -exponent > 100 {
            units = 0  // below 2^-100 × 2^83: far under half a unit
        } else {
            let shift = UInt128(-exponent)
            units = numerator >> shift
            let remainder = numerator - (units << shift)
            if remainder << 1 >= UInt128(1) << shift { units += 1 }  // half away from zero
        }
        let negative = value < 0 && units > 0
        let whole = String(units / power)
        guard places > 0 else { return (negative ? "-" : "") + whole }
        var fraction = Array(String(units % power))
        fraction.insert(contentsOf: Array(repeating: "0", count: places - fraction.count), at: 0)
        let keep = max(0, min(minimumDecimals ?? places, places))
        while fraction.count > keep, fraction.last == "0" { fraction.removeLast() }
        return (negative ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + String(fraction))
    }

    /// ISO 8601 as `UTCTime.format` promises (clamped to years 0000...9999,
    /// non-finite as the epoch, rounded to `fractionDigits`), the calendar from libc.
    static func referenceUTC(_ seconds: Double, fractionDigits digits: Int) -> String {
        let clamped = seconds.isFinite ? min(max(seconds, -62_167_219_200), 253_402_300_799.999) : 0
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let ticks = Int64((clamped * Double(scale)).rounded())
        let whole = ticks >= 0 ? ticks / scale : -((-ticks + scale - 1) / scale)  // floor
        let fraction = ticks - whole * scale
        var stamp = time_t(whole)
        var parts = tm()
        _ = gmtime_r(&stamp, &parts)
        func padded(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = padded(Int64(parts.tm_year) + 1900, 4) + "-" + padded(Int64(parts.tm_mon) + 1, 2) + "-"
        text += padded(Int64(parts.tm_mday), 2) + "T" + padded(Int64(parts.tm_hour), 2) + ":"
        text += padded(Int64(parts.tm_min), 2) + ":" + padded(Int64(parts.tm_sec), 2)
        if digits > 0 { text += "." + padded(fraction, digits) }
        return text + "Z"
    }

    /// A JSON string literal as RFC 8259 allows and the log writes it.
    static func referenceJSONString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The record's line as docs/protocol.md describes it, member by member.
    static func referenceLine(_ record: LogRecord) -> String {
        var line = #"{"time":""# + referenceUTC(record.time, fractionDigits: 3) + "\""
        line += #","lat":"# + referenceDecimal(record.latitude.isFinite ? record.latitude : 0, decimals: 7)!
        line += #","lon":"# + referenceDecimal(record.longitude.isFinite ? record.longitude : 0, decimals: 7)!
        let measurements = [
            ("alt", record.altitude), ("hAcc", record.horizontalError), ("vAcc", record.verticalError),
            ("speed", record.speed), ("course", record.course),
        ]
        for (key, value) in measurements {
            guard let value, let text = referenceDecimal(value, decimals: 3, minimumDecimals: 1) else { continue }
            line += ",\"\(key)\":" + text
        }
        line += #","mode":"# + String(record.mode.rawValue)
        if let satellites = record.satellites { line += #","sats":"# + String(satellites) }
        line += #","accuracy":""# + record.accuracy.rawValue + #"","client":"#
        return line + referenceJSONString(record.client) + "}\n"
    }

    // MARK: generated values

    /// Values that stress rounding to `decimals` places, with their neighbours.
    static func edgeValues(decimals: Int, _ random: inout SplitMix64, count: Int) -> [Double] {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        var values: [Double] = [
            0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .nan, -.nan, .infinity, -.infinity,
            0.9999995, 0.99999995, -0.99999995, 9.9999999999, 99.9995, 0.0005, -0.0005, 0.5, -0.5,
            89.99999995, 179.99999996, -179.99999996, 1.00000005, 1.0005, 4.0e15 / scale,
            4.0e15 / scale * 1.0000001, 1e300, -1e300, 1e-300, 123456789.123, 1e12, 1e16,
        ]
        for _ in 0..<count {
            switch random.below(8) {
            case 0:
                values.append(Double(bitPattern: random.next()))  // anything, NaN and subnormals included
            case 1:
                values.append(random.sign() * random.unit() * 180)  // a coordinate
            case 2:
                values.append(random.sign() * random.unit() * 10_000)  // a measurement
            case 3:
                // A tie at this precision: k + 0.5 units (rarely exact in binary, so both sides matter).
                let k = Double(random.below(2_000_000_000))
                values.append(random.sign() * (k + 0.5) / scale)
            case 4:
                // Just under a power of ten by half a unit: carries through every digit.
                let power = Double(UInt64(1) << UInt64(random.below(40)))
                var ten = 1.0
                for _ in 0..<random.below(12) { ten *= 10 }
                values.append(random.sign() * ((random.next() & 1 == 0 ? ten : power) - 0.5 / scale))
            case 5:
                values.append(random.sign() * 4.0e15 / scale * (1 + (random.unit() - 0.5) * 1e-9))  // the exact-integer edge
            case 6:
                values.append(random.sign() * Double(random.below(1 << 30)) / 1024)  // exact binary fractions
            default:
                // Any magnitude: a random exponent.
                values.append(random.sign() * random.unit() * Double(sign: .plus, exponent: random.below(120) - 60, significand: 1))
            }
        }
        return values.flatMap { [$0, $0.nextUp, $0.nextDown] }
    }

    // MARK: tests

    @Test func fixedDecimalsMatchExactIntegerRounding() {
        var random = SplitMix64(state: 0x5EED_0010)
        var checked = 0
        var mismatches: [String] = []
        for decimals in 0...10 {
            for value in Self.edgeValues(decimals: decimals, &random, count: 6_000) {
                for minimum in [nil, 0, 1, 3] as [Int?] {
                    let expected = Self.referenceDecimal(value, decimals: decimals, minimumDecimals: minimum)
                    let actual = FixedDecimal.format(value, decimals: decimals, minimumDecimals: minimum)
                    checked += 1
                    if actual != expected, mismatches.count < 10 {
                        mismatches.append("\(value) d=\(decimals) min=\(String(describing: minimum)): \(actual ?? "nil") ≠ \(expected ?? "nil")")
                    }
                }
            }
        }
        #expect(checked > 700_000)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func referenceAgreesWithHandRoundedValues() {
        // The reference itself, on values rounded by hand (FixedDecimalTests' table).
        #expect(Self.referenceDecimal(1.00000005, decimals: 7) == "1.0000000")
        #expect(Self.referenceDecimal(-33.86785005, decimals: 7) == "-33.8678501")
        #expect(Self.referenceDecimal(89.99999995, decimals: 7) == "90.0000000")
        #expect(Self.referenceDecimal(-1.5e-7, decimals: 7) == "-0.0000001")
        #expect(Self.referenceDecimal(-0.0004, decimals: 3, minimumDecimals: 1) == "0.0")
        #expect(Self.referenceDecimal(12345.6789, decimals: 3, minimumDecimals: 1) == "12345.679")
        #expect(Self.referenceUTC(-0.5, fractionDigits: 1) == "1969-12-31T23:59:59.5Z")
        #expect(Self.referenceUTC(951_782_400, fractionDigits: 0) == "2000-02-29T00:00:00Z")
    }

    @Test func timesMatchLibcCalendar() {
        var random = SplitMix64(state: 0x5EED_0011)
        // Leap days and their neighbours, the epoch, the ends of years 0 and 9999.
        var times: [Double] = [
            0, -0.0, -0.0005, -0.0004, 0.0005, -1, -86_400, .nan, .infinity, -.infinity, 1e13, -1e13,
            -62_167_219_200, -62_167_219_200.0004, 253_402_300_799.999, 253_402_300_799.9995, 253_402_300_800,
        ]
        for year in [0, 4, 100, 400, 1900, 1968, 1969, 1970, 1972, 2000, 2024, 2100, 2400, 9996, 9999] {
            for (month, day) in [(1, 1), (2, 28), (2, 29), (3, 1), (12, 31)] where day <= UTCTime.daysIn(month: month, year: year) {
                let midnight = Double(UTCTime.days(year: year, month: month, day: day) * 86_400)
                times += [midnight, midnight - 0.0005, midnight + 86_399.9995, midnight - 1]
            }
        }
        for _ in 0..<60_000 {
            switch random.below(3) {
            case 0: times.append(-62_167_219_200 + random.unit() * 315_569_520_000)  // any writable time
            case 1: times.append((random.unit() - 0.5) * 4e9)  // around the epoch
            default: times.append(Double(Int64(random.below(1 << 40))) / 1024 - 1e8)  // exact binary fractions
            }
        }
        var mismatches: [String] = []
        for time in times.flatMap({ [$0, $0.nextUp, $0.nextDown] }) {
            for digits in [0, 1, 3, 6] {
                let expected = Self.referenceUTC(time, fractionDigits: digits)
                let actual = UTCTime.format(time, fractionDigits: digits)
                if actual != expected, mismatches.count < 10 { mismatches.append("\(time)/\(digits): \(actual) ≠ \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func nanosecondsPast2262DoNotOverflow() {
        // 10^9 ticks a second no longer fit an Int64 there; the second's part is rounded alone.
        #expect(UTCTime.format(1e10 + 0.25, fractionDigits: 9) == "2286-11-20T17:46:40.250000000Z")
        #expect(UTCTime.format(-62_167_219_200, fractionDigits: 9) == "0000-01-01T00:00:00.000000000Z")
        let last = UTCTime.format(253_402_300_799.999, fractionDigits: 9)
        #expect(last.hasPrefix("9999-12-31T23:59:59.99") && last.count == 30, "\(last)")
        #expect(UTCTime.format(.greatestFiniteMagnitude, fractionDigits: 8).hasPrefix("9999-12-31T23:59:59.99"))
    }

    @Test func linesMatchTheDocumentedFormat() {
        var random = SplitMix64(state: 0x5EED_0012)
        let clients = ["logger", "a\"b", "back\\slash", "tab\tnew\nline\r", "\u{1}\u{1f}", "naïve ✓", ""]
        func measurement() -> Double? {
            switch random.below(6) {
            case 0: nil
            case 1: [Double.nan, .infinity, -.infinity, 1e300, -.greatestFiniteMagnitude, 0.9995, -0.0004][random.below(7)]
            default: random.unit() * [1, 100, 10_000, 1e9][random.below(4)]
            }
        }
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let record = LogRecord(
                time: random.below(8) == 0
                    ? [0, -0.0005, 253_402_300_799.999, -62_167_219_200, .nan][random.below(5)]
                    : 1.7e9 + random.unit() * 1e9,
                latitude: random.below(10) == 0 ? [.nan, -90, 90, 1e300, -0.0][random.below(5)] : random.sign() * random.unit() * 90,
                longitude: random.sign() * random.unit() * 180, altitude: measurement(),
                horizontalError: measurement(), verticalError: measurement(), speed: measurement(), course: measurement(),
                mode: [.unknown, .noFix, .twoD, .threeD][random.below(4)],
                satellites: random.below(3) == 0 ? nil : [0, 12, Int.max, Int.min][random.below(4)],
                accuracy: random.next() & 1 == 0 ? .full : .reduced, client: clients[random.below(clients.count)])
            let expected = Self.referenceLine(record)
            let line = record.line()
            var split: [UInt8] = []
            record.appendLinePrefix(to: &split)
            split += LogRecord.lineEnding(client: record.client)
            if (String(decoding: line, as: UTF8.self) != expected || split != line), mismatches.count < 5 {
                mismatches.append("\(String(decoding: line, as: UTF8.self)) ≠ \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func theLongestPossibleLineFits() {
        // Every member present and every number at its longest: no trap, exact text.
        let huge = -Double.greatestFiniteMagnitude
        let record = LogRecord(
            time: 253_402_300_799.999, latitude: huge, longitude: huge, altitude: huge, horizontalError: huge,
            verticalError: huge, speed: huge, course: huge, mode: .threeD, satellites: Int.min, accuracy: .reduced,
            client: String(repeating: "\u{1}", count: 400))
        #expect(String(decoding: record.line(), as: UTF8.self) == Self.referenceLine(record))
    }

    @Test func integersMatchTheirDescription() {
        var random = SplitMix64(state: 0x5EED_0013)
        var values: [UInt64] = [0, 9, 10, 99, 100, UInt64.max, UInt64.max - 1]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        for _ in 0..<5000 { values.append(random.next() >> random.below(64)) }
        for value in values {
            for width in [1, 2, 4, 7, 20, 24] {
                var out: [UInt8] = [0x41]
                FixedDecimal.appendDecimal(value, width: width, to: &out)
                let text = String(value)
                #expect(String(decoding: out, as: UTF8.self) == "A" + String(repeating: "0", count: max(0, width - text.count)) + text)
            }
            let signed = Int(truncatingIfNeeded: value)
            var out: [UInt8] = []
            ByteText.append(signed, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(signed))
        }
    }
}

extension SplitMix64 {
    /// A number in 0..<bound.
    fileprivate mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    /// A number in [0, 1).
    fileprivate mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// 1 or -1.
    fileprivate mutating func sign() -> Double { next() & 1 == 0 ? 1 : -1 }
}
