import LocationValues

/// One field's bytes, and the parsers for the kinds of value NMEA carries.
/// Every parser is strict: anything but the expected characters gives `nil`.
struct NMEAField {
    let base: UnsafePointer<UInt8>?
    let count: Int

    /// No bytes.
    var isEmpty: Bool { count == 0 }

    @inline(__always)
    subscript(_ i: Int) -> UInt8 { base.map { $0[i] } ?? 0 }

    /// The first byte, or 0 when empty.
    var first: UInt8 { count > 0 ? self[0] : 0 }

    /// True when the field is exactly `ascii`.
    func equals(_ ascii: StaticString) -> Bool {
        guard ascii.utf8CodeUnitCount == count else { return false }
        let p = ascii.utf8Start
        for k in 0..<count where self[k] != p[k] { return false }
        return true
    }

    /// A plain decimal: optional sign, digits, optional `.` and digits
    /// (`-29.5`, `00459.9`, `.5`). Up to 18 significant digits are kept.
    func decimal() -> Double? {
        var k = 0
        var negative = false
        if k < count, self[k] == UInt8(ascii: "-") || self[k] == UInt8(ascii: "+") {
            negative = self[k] == UInt8(ascii: "-")
            k += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var sawPoint = false
        var sawDigit = false
        while k < count {
            let c = self[k]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                sawDigit = true
                if digits < 18 {
                    mantissa = mantissa * 10 + UInt64(c - UInt8(ascii: "0"))
                    if mantissa > 0 { digits += 1 }
                    if sawPoint { scale += 1 }
                } else if !sawPoint {
                    scale -= 1
                }
            } else if c == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                return nil
            }
            k += 1
        }
        guard sawDigit else { return nil }
        var value = Double(mantissa)
        if scale > 0 {
            value /= NMEAField.powersOfTen[min(scale, 22)]
        } else if scale < 0 {
            value *= NMEAField.powersOfTen[min(-scale, 22)]
        }
        return negative ? -value : value
    }

    /// Digits only (`08`), as a non-negative integer.
    func integer() -> Int? {
        guard count > 0, count <= 9 else { return nil }
        var value = 0
        for k in 0..<count {
            let c = self[k]
            guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(c - UInt8(ascii: "0"))
        }
        return value
    }

    /// `DDDMM.mmmm` as degrees, computed as gpsd does: whole minutes from the
    /// integer part, plus the fractional minutes, times 1/60. `nil` without a
    /// `.` (gpsd refuses those too) or with minutes of 60 or more.
    func degreesMinutes() -> Double? {
        var k = 0
        var whole = 0
        var wholeDigits = 0
        while k < count, self[k] >= UInt8(ascii: "0") && self[k] <= UInt8(ascii: "9") {
            guard wholeDigits < 9 else { return nil }
            whole = whole * 10 + Int(self[k] - UInt8(ascii: "0"))
            wholeDigits += 1
            k += 1
        }
        guard k < count, self[k] == UInt8(ascii: ".") else { return nil }
        k += 1
        var fraction: UInt64 = 0
        var fractionDigits = 0
        while k < count {
            let c = self[k]
            guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
            if fractionDigits < 15 {
                fraction = fraction * 10 + UInt64(c - UInt8(ascii: "0"))
                fractionDigits += 1
            }
            k += 1
        }
        let degrees = whole / 100
        let minutes = whole - degrees * 100
        guard minutes < 60 else { return nil }
        let fractionalMinutes = Double(fraction) / NMEAField.powersOfTen[fractionDigits]
        let fullMinutes = Double(whole - degrees * 40) + fractionalMinutes
        return fullMinutes * (1.0 / 60.0)
    }

    /// `hhmmss` with optional `.s…` as nanoseconds since midnight.
    func timeOfDay() -> Int64? {
        guard count >= 6, let hours = twoDigits(at: 0), let minutes = twoDigits(at: 2),
              let seconds = twoDigits(at: 4) else { return nil }
        // Second 60 is a leap second, which only 23:59 UTC has.
        guard hours < 24, minutes < 60, seconds < 60 || (seconds == 60 && hours == 23 && minutes == 59) else {
            return nil
        }
        var nanoseconds: Int64 = 0
        if count > 6 {
            guard self[6] == UInt8(ascii: ".") else { return nil }
            var scale: Int64 = 100_000_000
            for k in 7..<count {
                let c = self[k]
                guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
                nanoseconds += Int64(c - UInt8(ascii: "0")) * scale
                scale /= 10
            }
        }
        if seconds == 60 {
            // UTC seconds since 1970 have no 23:59:60: the leap second is squeezed into the last
            // millisecond of the day (23:59:60.5 is 23:59:59.9995), so it stays on its own day, after
            // 23:59:59 and before the next day's 00:00:00.
            return Int64(86_399) * 1_000_000_000 + 999_000_000 + nanoseconds / 1000
        }
        return Int64(hours * 3600 + minutes * 60 + seconds) * 1_000_000_000 + nanoseconds
    }

    /// `ddmmyy` as days since 1970-01-01. The pivot: two-digit years 80–99 are
    /// 1980–1999 and 00–79 are 2000–2079 — the hundred years from the start of
    /// GPS time (1980-01-06), before which no receiver has a fix. Fixed, not
    /// the build year (gpsd's choice), so a build never changes a date.
    func dayMonthYear() -> Int? {
        guard count == 6 else { return nil }
        guard let day = twoDigits(at: 0), let month = twoDigits(at: 2), let yy = twoDigits(at: 4) else { return nil }
        return NMEAField.days(year: yy < 80 ? 2000 + yy : 1900 + yy, month: month, day: day)
    }

    private func twoDigits(at k: Int) -> Int? {
        let a = self[k], b = self[k + 1]
        guard a >= UInt8(ascii: "0") && a <= UInt8(ascii: "9"), b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else {
            return nil
        }
        return Int(a - UInt8(ascii: "0")) * 10 + Int(b - UInt8(ascii: "0"))
    }

    /// Days since 1970-01-01 of a valid calendar date, else `nil`.
    static func days(year: Int, month: Int, day: Int) -> Int? {
        guard month >= 1, month <= 12, day >= 1, day <= UTCTime.daysIn(month: month, year: year) else { return nil }
        return UTCTime.days(year: year, month: month, day: day)
    }

    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
