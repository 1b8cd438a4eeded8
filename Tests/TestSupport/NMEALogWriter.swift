import LocationCore
import LocationValues

#if canImport(Glibc)
import Glibc
#endif

/// Writes small NMEA 0183 logs for tests: a receiver that moves in a straight
/// line at 1 Hz, with the sentence mix of each epoch chosen by the test.
/// Dates are recent (2026), so gpsd 3.22's 1024-week date shift for pre-2017
/// data does not apply.
public struct NMEALogWriter {
    /// Sentences an epoch may contain.
    public enum Sentence: Sendable, Hashable {
        case gga, gsa, rmc, vtg
        /// Three GSV sentences: `inView` satellites, the GSA's eight among them.
        case gsv
    }

    /// One receiver epoch.
    public struct Epoch: Sendable, Hashable {
        /// UTC seconds since 1970.
        public var time: Double
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double
        public var speedKnots: Double
        public var course: Double
        public var sentences: [Sentence]
        /// Leave the time (and date) fields empty.
        public var withoutTime = false
    }

    /// 2026-03-14T12:03:00Z.
    public static let start = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 12, minute: 3, second: 0)

    /// `count` epochs heading north-east from 48.1173 N 11.5167 E, about 1.4 m
    /// apart, each with `sentences`; `adjust` may change any of them.
    public static func walk(
        count: Int, sentences: [Sentence] = [.gga, .gsa, .rmc],
        adjust: (Int, inout Epoch) -> Void = { _, _ in }
    ) -> [Epoch] {
        (0..<count).map { index in
            var epoch = Epoch(
                time: start + Double(index),
                latitude: 48.1173 + Double(index) * 0.00001,
                longitude: 11.516_666_7 + Double(index) * 0.000_013,
                altitude: 545.4 + Double(index) * 0.1,
                speedKnots: 2.7,
                course: 40.3,
                sentences: sentences)
            adjust(index, &epoch)
            return epoch
        }
    }

    /// The log text, CR LF line ends, valid checksums.
    public static func render(_ epochs: [Epoch]) -> String {
        var out = ""
        for epoch in epochs {
            for sentence in epoch.sentences {
                if sentence == .gsv {
                    for body in gsvBodies() { out += line(body) }
                } else {
                    out += line(body(sentence, epoch))
                }
            }
        }
        return out
    }

    /// Writes `epochs` to a new file in the temporary directory and returns its path.
    public static func write(_ epochs: [Epoch], name: String) -> String {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        let path = "\(directory)/locationd-test-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).nmea"
        let bytes = Array(render(epochs).utf8)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot create \(path)")
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            precondition(n > 0 || errno == EINTR, "cannot write \(path)")
            if n > 0 { offset += n }
        }
        return path
    }

    /// `$body*CS\r\n`.
    public static func line(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n"
    }

    private static func body(_ sentence: Sentence, _ epoch: Epoch) -> String {
        let time = epoch.withoutTime ? "" : timeField(epoch.time)
        let date = epoch.withoutTime ? "" : dateField(epoch.time)
        let lat = coordinate(epoch.latitude, degreeDigits: 2, positive: "N", negative: "S")
        let lon = coordinate(epoch.longitude, degreeDigits: 3, positive: "E", negative: "W")
        switch sentence {
        case .gga:
            return "GPGGA,\(time),\(lat),\(lon),1,08,0.9,\(fixed(epoch.altitude, 1)),M,46.9,M,,"
        case .gsa:
            return "GPGSA,A,3,04,05,09,12,24,25,29,31,,,,,\(fixed(dops.pdop, 1)),\(fixed(dops.hdop, 1)),\(fixed(dops.vdop, 1))"
        case .rmc:
            return "GPRMC,\(time),A,\(lat),\(lon),\(fixed(epoch.speedKnots, 2)),\(fixed(epoch.course, 1)),\(date),,,A"
        case .gsv:
            return gsvBodies()[0]
        case .vtg:
            return "GPVTG,\(fixed(epoch.course, 1)),T,,M,\(fixed(epoch.speedKnots, 2)),N,\(fixed(epoch.speedKnots * 1.852, 2)),K,A"
        }
    }

    /// The satellites a `.gsv` epoch has in view: the GSA's eight (04 05 09 12 24 25 29 31) and two more.
    static let visiblePRNs = ["02", "04", "05", "09", "12", "14", "24", "25", "29", "31"]
    /// How many satellites a `.gsv` epoch has in view.
    public static var inView: Int { visiblePRNs.count }
    /// How many of them the GSA says are used.
    public static let used = 8
    /// The DOPs the GSA sentence gives: PDOP, HDOP, VDOP.
    public static let dops = (pdop: 1.8, hdop: 0.9, vdop: 1.5)

    /// `GPGSV,3,n,10,…`: four satellites a sentence (PRN, elevation, azimuth, SNR).
    private static func gsvBodies() -> [String] {
        let satellites = visiblePRNs.enumerated().map { index, prn in
            "\(prn),\(pad(10 + index * 7, 2)),\(pad(index * 36, 3)),\(pad(25 + index, 2))"
        }
        let count = (satellites.count + 3) / 4
        return (0..<count).map { n in
            let part = satellites[(n * 4)..<min(satellites.count, n * 4 + 4)]
            return "GPGSV,\(count),\(n + 1),\(pad(satellites.count, 2)),\(part.joined(separator: ","))"
        }
    }

    private static func timeField(_ seconds: Double) -> String {
        let ofDay = seconds - (seconds / 86_400).rounded(.down) * 86_400
        let whole = Int(ofDay)
        let hundredths = Int(((ofDay - Double(whole)) * 100).rounded())
        return pad(whole / 3600, 2) + pad(whole / 60 % 60, 2) + pad(whole % 60, 2) + "." + pad(hundredths, 2)
    }

    private static func dateField(_ seconds: Double) -> String {
        let (year, month, day) = UTCTime.civil(days: Int((seconds / 86_400).rounded(.down)))
        return pad(day, 2) + pad(month, 2) + pad(year % 100, 2)
    }

    /// `DDMM.MMMMMM,H` (or `DDDMM…` for longitude).
    private static func coordinate(_ value: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let magnitude = abs(value)
        var degrees = Int(magnitude)
        var minutes = ((magnitude - Double(degrees)) * 60 * 1_000_000).rounded() / 1_000_000
        if minutes >= 60 {
            degrees += 1
            minutes -= 60
        }
        let minuteText = fixed(minutes, 6)
        let paddedMinutes = minutes < 10 ? "0" + minuteText : minuteText
        return pad(degrees, degreeDigits) + paddedMinutes + "," + (value < 0 ? negative : positive)
    }

    private static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = scaled % Int64(scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole)." + pad(Int(fraction), digits)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
