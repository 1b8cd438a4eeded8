import CGPS
import LocationCodecs
import LocationCore
import LocationValues
import Testing
import TestSupport

@testable import LocationDaemon

/// A gpsd log read by `GPSDLogLine` gives what the live source gets from the
/// same line through the CGPS shim (its TPV reader, libgps for the rest):
/// the same time, mode, values and device for every TPV, the same satellites
/// used for every SKY. So a recording and gpsd live make the same epochs.
@Suite(.timeLimit(.minutes(10))) struct GPSDLogShimTests {
    /// The line through the shim, as `cgps_read` unpacks it.
    static func live(_ line: String, _ session: OpaquePointer) -> cgps_report {
        var bytes = Array(line.utf8CString)
        var report = cgps_report()
        _ = bytes.withUnsafeMutableBufferPointer { cgps_unpack(session, $0.baseAddress, &report, CGPS_UNPACK_SHIM) }
        return report
    }

    static func text(_ report: cgps_report) -> String? {
        var copy = report
        let path = withUnsafeBytes(of: &copy.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return path.isEmpty ? nil : path
    }

    /// What differs between the log reader's report and the shim's, in words; empty when they agree.
    static func differences(_ read: GPSDFixReport, _ report: cgps_report) -> [String] {
        let fix = report.fix
        func known(_ bit: UInt32) -> Bool { fix.set & bit != 0 }
        var out: [String] = []
        let time = known(UInt32(CGPS_HAS_TIME)) ? GPSDFixReport.Time(seconds: fix.time_sec, nanoseconds: fix.time_nsec) : nil
        if read.time != time { out.append("time \(String(describing: read.time)) vs \(String(describing: time))") }
        let mode = known(UInt32(CGPS_HAS_MODE)) ? Int(fix.mode) : 0
        if read.mode.rawValue != mode { out.append("mode \(read.mode.rawValue) vs \(mode)") }
        let values: [(String, Double?, Double, UInt32)] = [
            ("lat", read.latitude, fix.latitude, UInt32(CGPS_HAS_LATLON)),
            ("lon", read.longitude, fix.longitude, UInt32(CGPS_HAS_LATLON)),
            ("altMSL", read.altitudeMSL, fix.alt_msl, UInt32(CGPS_HAS_ALT_MSL)),
            ("altHAE", read.altitudeHAE, fix.alt_hae, UInt32(CGPS_HAS_ALT_HAE)),
            ("geoidSep", read.geoidSeparation, fix.geoid_sep, UInt32(CGPS_HAS_GEOID_SEP)),
            ("eph", read.eph, fix.eph, UInt32(CGPS_HAS_EPH)), ("epv", read.epv, fix.epv, UInt32(CGPS_HAS_EPV)),
            ("epx", read.epx, fix.epx, UInt32(CGPS_HAS_EPX)), ("epy", read.epy, fix.epy, UInt32(CGPS_HAS_EPY)),
            ("speed", read.speed, fix.speed, UInt32(CGPS_HAS_SPEED)),
            ("track", read.track, fix.track, UInt32(CGPS_HAS_TRACK)),
        ]
        for (name, mine, theirs, bit) in values {
            let live = known(bit) ? theirs : nil
            // Bit for bit: the same double, not merely close.
            if mine?.bitPattern != live?.bitPattern { out.append("\(name) \(String(describing: mine)) vs \(String(describing: live))") }
        }
        if read.device != text(report) { out.append("device \(String(describing: read.device)) vs \(String(describing: text(report)))") }
        return out
    }

    static func check(_ line: String, _ session: OpaquePointer, where place: String) -> Bool {
        let decoded = Array(line.utf8).withUnsafeBytes { GPSDLogLine.decode($0) }
        let report = live(line, session)
        switch decoded {
        case .tpv(let read, _):
            guard report.kind == CGPS_REPORT_TPV else {
                Issue.record("\(place): a TPV to the log reader, kind \(report.kind) live: \(line)")
                return false
            }
            let diff = differences(read, report)
            #expect(diff.isEmpty, "\(place): \(diff.joined(separator: "; "))\n\(line)")
            return diff.isEmpty
        case .sky(let device, let used):
            #expect(report.kind == CGPS_REPORT_SKY, "\(place): \(line)")
            let live = report.satellites_used >= 0 ? Int(report.satellites_used) : nil
            let agree = used == live && device == text(report)
            #expect(
                agree,
                "\(place): used \(String(describing: used)) vs \(String(describing: live)), device \(String(describing: device)) vs \(String(describing: text(report)))")
            return agree
        default:
            return true
        }
    }

    @Test
    func everyTPVAndSKYOfGPSDsRegressionOutputReadsAsTheLiveSourceReadsIt() throws {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        var checked = 0
        for line in try GPSDCorpusOutput.lines(of: "TPV", "SKY") {
            guard Self.check(line.text, session, where: "\(line.file):\(line.number)") else { return }
            checked += 1
        }
        #expect(checked > 8000)
    }

    @Test func theTwoReceiversLogReadsAsTheLiveSourceReadsIt() throws {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        let bytes = try FileIO.read(PackagePaths.path("fixtures/receivers/two-receivers.json"))
        for (n, line) in bytes.split(separator: 10).enumerated() {
            _ = Self.check(String(decoding: line, as: UTF8.self), session, where: "line \(n + 1)")
        }
    }

    /// Lines outside gpsd's own shape, which the shim leaves to libgps: where both read a TPV, they agree.
    /// (Not an exponent beyond ±22, which gpsd never writes: libgps's `safe_atof` is not correctly
    /// rounded there — 1.5e-30 reads one unit in the last place off — and JSONParser is.)
    @Test(arguments: [
        #"{"class":"TPV", "mode":3,"lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","device":"/dev/tty\u0041","mode":3,"lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"lat":35.6811990001234567,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"lat":1.5,"lon":2.5,"x":[1,2]}"#,
        #"{"class":"TPV","mode":3.0,"lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"time":"9999-12-31T23:59:59.000Z","lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"time":"2024-02-29T23:59:60.123456789Z","lat":1,"lon":2}"#,
        #"{"class":"TPV","mode":4,"lat":1,"lon":2}"#,
        // A fraction that rounds to a whole second: libgps's nanoseconds are 10⁹, which the shim refuses.
        #"{"class":"TPV","mode":3,"time":"2026-03-14T09:30:00.99999999999999999Z","lat":1,"lon":2}"#,
    ])
    func linesLeftToLibgpsReadTheSame(_ line: String) throws {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        #expect(Self.check(line, session, where: "table"))
    }

    /// `bytes` through `GPSDLogParser` with the replay's shim reader or without it: the fixes (as text, so that a
    /// NaN equals itself), the statistics, the problems, and how many lines the shim's reader took.
    static func parse(_ bytes: [UInt8], shim: Bool) -> (fixes: String, statistics: GPSDLogStatistics, problems: [String], taken: Int) {
        var parser = GPSDLogParser(device: "log.json")
        let reader = GPSDShimTPVReader()
        var fixes: [Fix] = []
        var taken = 0
        let read: GPSDLogParser.TPVReader = { line in
            guard shim, let report = reader.read(line) else { return nil }
            taken += 1
            return report
        }
        bytes.withUnsafeBytes { parser.feed($0, readingTPV: read) { fixes.append($0) } }
        parser.finish(readingTPV: read) { fixes.append($0) }
        return ("\(fixes)", parser.statistics, parser.takeProblems().map(\.description), taken)
    }

    /// The replay's TPVs through the shim (tpv.c, the live source's reader) give what `GPSDLogLine` gives, fix for
    /// fix, count for count, and problem for problem; a line outside gpsd's shape, a mode out of range and a
    /// damaged member are still `GPSDLogLine`'s to read and report.
    @Test func theReplaysShimReaderGivesTheSameFixesAsTheLogLineReader() throws {
        var bytes = try FileIO.read(PackagePaths.path("fixtures/receivers/two-receivers.json"))
        let tpvs = bytes.split(separator: 10).filter { $0.starts(with: Array(#"{"class":"TPV","#.utf8)) }.count
        bytes += Array(
            """
            {"class":"TPV","device":"/dev/pts/1","mode":4,"time":"2026-03-14T09:31:00.000Z","lat":35.7,"lon":139.8}
            {"class":"TPV", "device":"/dev/pts/1","mode":3,"time":"2026-03-14T09:31:01.000Z","lat":35.7,"lon":139.8}
            {"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-03-14T09:31:02.000Z","lat":"35.7","lon":139.8}
            {"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-03-14T09:31:03.000Z","lat":95.5,"lon":139.8}
            """.utf8)
        let shim = Self.parse(bytes, shim: true)
        let swift = Self.parse(bytes, shim: false)
        #expect(shim.fixes == swift.fixes)
        #expect(shim.statistics == swift.statistics)
        #expect(shim.problems == swift.problems)
        #expect(shim.problems.count == 3, "\(shim.problems)")
        // Every TPV of the recording, the mode 4 (the parser then leaves it to GPSDLogLine) and the latitude
        // out of range, the last line, without its line end; not the line with white space nor the quoted latitude.
        #expect(shim.taken == tpvs + 2)
        #expect(swift.taken == 0)
    }
}
