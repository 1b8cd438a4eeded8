#if canImport(Glibc)
import Glibc
#endif
import LocationCodecs
import LocationCore
import LocationValues
import TestSupport

/// Builders and runners shared by the NMEA tests.
enum NMEATest {
    /// `$BODY*CS\r\n` with the right checksum.
    static func sentence(_ body: String, ending: String = "\r\n") -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        let hex = Array("0123456789ABCDEF".utf8)
        let checksum = String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self)
        return "$" + body + "*" + checksum + ending
    }

    /// Sentences for one 1 Hz epoch of a GP receiver at `time` (hhmmss) on
    /// `date` (ddmmyy): GGA, GSA, RMC.
    static func epoch(
        _ time: String, date: String = "140326", lat: String = "3540.87194", ns: String = "N",
        lon: String = "13946.02401", ew: String = "E", quality: Int = 1, satellites: String = "09",
        hdop: String = "0.87", altitude: String = "34.5", gsaMode: Int = 3, rmcStatus: String = "A",
        talker: String = "GP"
    ) -> String {
        sentence("\(talker)GGA,\(time),\(lat),\(ns),\(lon),\(ew),\(quality),\(satellites),\(hdop),\(altitude),M,18.4,M,,")
            + sentence("\(talker)GSA,A,\(gsaMode),01,10,12,15,25,26,27,28,31,,,,1.67,\(hdop),1.42")
            + sentence("\(talker)RMC,\(time),\(rmcStatus),\(lat),\(ns),\(lon),\(ew),2.304,157.60,\(date),,,A")
    }

    /// What a parser made of some input.
    struct Result {
        var fixes: [Fix] = []
        var statistics = NMEAStatistics()
    }

    /// Parses `text` in chunks of `chunk` bytes, then finishes.
    static func parse(_ text: String, chunk: Int = .max) -> Result {
        parse(Array(text.utf8), chunk: chunk)
    }

    /// Parses `bytes` in chunks of `chunk` bytes, then finishes.
    static func parse(_ bytes: [UInt8], chunk: Int = .max) -> Result {
        var parser = NMEAParser()
        var result = Result()
        bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let end = start + min(chunk, raw.count - start)
                parser.feed(UnsafeRawBufferPointer(rebasing: raw[start..<end])) { result.fixes.append($0) }
                start = end
            }
        }
        parser.finish { result.fixes.append($0) }
        result.statistics = parser.statistics
        return result
    }

    /// Fix lists equal field for field, NaN equal to NaN (a no-fix epoch's
    /// coordinates are NaN, which `==` never matches).
    static func same(_ a: [Fix], _ b: [Fix]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            var x = x, y = y
            if x.latitude.isNaN && y.latitude.isNaN { x.latitude = 0; y.latitude = 0 }
            if x.longitude.isNaN && y.longitude.isNaN { x.longitude = 0; y.longitude = 0 }
            if x != y { return false }
        }
        return true
    }

    /// `hh:mm:ss.sss` of a fix's time.
    static func timeOfDay(_ fix: Fix) -> String {
        guard let time = fix.time else { return "-" }
        let text = UTCTime.format(time, fractionDigits: 3)
        return String(text.dropFirst(11).prefix(12))
    }

    /// The project's own fixtures.
    static let fixtureNames = [
        "walk.nmea", "equator-meridian.nmea", "antimeridian.nmea", "high-latitude.nmea",
        "midnight.nmea", "no-fix-gaps.nmea", "corrupted.nmea",
    ]

    /// A fixture's bytes (empty if unreadable, which the tests report).
    static func fixture(_ name: String) -> [UInt8] {
        (try? FileIO.read(PackagePaths.fixture(name))) ?? []
    }

    /// Great-circle distance in metres (spherical; good to 0.5 %, enough here).
    static func distance(_ a: Fix, _ b: Fix) -> Double {
        let r = 6_371_008.8
        let p1 = a.latitude * .pi / 180, p2 = b.latitude * .pi / 180
        let dp = p2 - p1, dl = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }
}
