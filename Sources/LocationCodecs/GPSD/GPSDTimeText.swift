import LocationValues

/// gpsd's report time, `YYYY-MM-DDTHH:MM:SS[.f…]Z`, read into the value the
/// live source gets for the same text: the CGPS shim's TPV reader (tpv.c)
/// computes it as libgps does — the fields within strptime's limits, years
/// 1970–9999, the fraction read as `strtod` reads it and its nanoseconds
/// truncated from `fraction × 10⁹` — so a TPV read from a log and the same
/// TPV read live are one epoch.
enum GPSDTimeText {
    /// The time `text` names; `nil` when there is no text, when it is `1970-01-01T00:00:00Z` (libgps's "no time"),
    /// or when its fraction rounds up to a whole second (libgps's nanoseconds are then 10⁹, which the live source
    /// refuses). Throws for text that is not a time as gpsd writes it.
    static func parse(_ text: String?) throws(GPSDLogLineError) -> GPSDFixReport.Time? {
        guard let text else { return nil }
        guard let time = read(Array(text.utf8)) else {
            throw GPSDLogLineError("\"time\" is not a UTC time as gpsd writes it (YYYY-MM-DDTHH:MM:SS[.fff]Z, 1970 to 9999)")
        }
        return time.seconds == 0 && time.nanoseconds == 0 ? nil : time
    }

    private static func read(_ b: [UInt8]) -> GPSDFixReport.Time? {
        guard b.count >= 20, b.count <= 64, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            b[b.count - 1] == UInt8(ascii: "Z")
        else { return nil }
        func two(_ at: Int) -> Int? {
            guard (0x30...0x39).contains(b[at]), (0x30...0x39).contains(b[at + 1]) else { return nil }
            return Int(b[at] - 0x30) * 10 + Int(b[at + 1] - 0x30)
        }
        guard let century = two(0), let year2 = two(2), let month = two(5), let day = two(8), let hour = two(11),
            let minute = two(14), let second = two(17)
        else { return nil }
        let year = century * 100 + year2
        // strptime's limits (a day past the month's end rolls over, as in libgps's mkgmtime).
        guard year >= 1970, (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var nanoseconds: Int32 = 0
        if b.count > 20 {
            let digits = b[20..<(b.count - 1)]
            guard b[19] == UInt8(ascii: "."), !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                let fraction = Double("0." + String(decoding: digits, as: UTF8.self))
            else { return nil }
            // (long)(fraction * 1e9), as libgps. A fraction that rounds to 1 gives 10⁹ there, which the
            // live source refuses: no time, as for 1970-01-01T00:00:00Z.
            let whole = fraction * 1e9
            guard whole < 1e9 else { return GPSDFixReport.Time(seconds: 0, nanoseconds: 0) }
            nanoseconds = Int32(whole)
        }
        let days = Int64(UTCTime.days(year: year, month: month, day: 1) + day - 1)
        return GPSDFixReport.Time(
            seconds: ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60 + Int64(second), nanoseconds: nanoseconds)
    }
}
