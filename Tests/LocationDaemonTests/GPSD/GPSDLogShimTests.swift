import CGPS
import LocationCodecs
import LocationCore
import LocationValues
import Testing
import TestSupport

@testable import LocationDaemon

/// One TPV decoder: a gpsd log's TPVs read by the replay (`GPSDShimTPVReader`)
/// give what the live source gets from the same lines (`cgps_unpack` as
/// `cgps_read` unpacks them): tpv.c for every TPV in the shape gpsd writes,
/// with no libgps at all; libgps for a TPV outside it, when libgps is there,
/// and a reason when it is not; the guard's verdict as live.
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

    /// A replay's reader whose libgps opener counts its calls; `libgps` false: as on a system without libgps.
    final class Reader {
        private(set) var opened = 0
        private(set) lazy var reader = GPSDShimTPVReader { [unowned self] in
            opened += 1
            if libgps { return GPSDShimTPVReader.libgps() }
            return (session: nil, problem: "libgps.so.28: cannot open shared object file")
        }
        let libgps: Bool

        init(libgps: Bool) { self.libgps = libgps }

        func read(_ line: String) -> GPSDLogParser.TPVReading { Array(line.utf8).withUnsafeBytes { reader.read($0) } }
    }

    /// What differs between the replay's report and the live one, in words; empty when they agree.
    static func differences(_ read: GPSDFixReport, mode: Int, _ report: cgps_report) -> [String] {
        let fix = report.fix
        func known(_ bit: UInt32) -> Bool { fix.set & bit != 0 }
        var out: [String] = []
        let time = known(UInt32(CGPS_HAS_TIME)) ? GPSDFixReport.Time(seconds: fix.time_sec, nanoseconds: fix.time_nsec) : nil
        if read.time != time { out.append("time \(String(describing: read.time)) vs \(String(describing: time))") }
        let liveMode = known(UInt32(CGPS_HAS_MODE)) ? Int(fix.mode) : 0
        if read.mode.rawValue != liveMode { out.append("mode \(read.mode.rawValue) vs \(liveMode)") }
        if mode != Int(report.tpv_mode) { out.append("mode given \(mode) vs \(report.tpv_mode)") }
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

    /// `line` read by the replay as live: the same TPV, or unreadable where live reads no TPV.
    static func check(_ line: String, _ session: OpaquePointer, _ reader: Reader, where place: String) -> Bool {
        let report = live(line, session)
        switch reader.read(line) {
        case .report(let read, let mode):
            guard report.kind == CGPS_REPORT_TPV else {
                Issue.record("\(place): a TPV to the replay, kind \(report.kind) live: \(line)")
                return false
            }
            let diff = differences(read, mode: mode, report)
            #expect(diff.isEmpty, "\(place): \(diff.joined(separator: "; "))\n\(line)")
            return diff.isEmpty
        case .unreadable(let reason):
            #expect(report.kind != CGPS_REPORT_TPV, "\(place): live reads a TPV the replay does not (\(reason)): \(line)")
            return report.kind != CGPS_REPORT_TPV
        }
    }

    /// Every TPV of gpsd's regression output is in gpsd's shape: the replay reads them all by tpv.c, as live, and
    /// never opens libgps.
    @Test func everyTPVOfGPSDsRegressionOutputReadsAsLiveWithoutLibgps() throws {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        let reader = Reader(libgps: false)
        var checked = 0
        for line in try GPSDCorpusOutput.lines(of: "TPV") {
            guard case .report = reader.read(line.text) else {
                Issue.record("\(line.file):\(line.number): not read without libgps")
                return
            }
            guard Self.check(line.text, session, reader, where: "\(line.file):\(line.number)") else { return }
            checked += 1
        }
        #expect(checked > 4000)
        #expect(reader.opened == 0)
    }

    @Test func theTwoReceiversLogReadsAsLiveWithoutLibgps() throws {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        let reader = Reader(libgps: false)
        let bytes = try FileIO.read(PackagePaths.path("fixtures/receivers/two-receivers.json"))
        var tpvs = 0
        for (n, line) in bytes.split(separator: 10).enumerated() where line.starts(with: Array(#"{"class":"TPV","#.utf8)) {
            _ = Self.check(String(decoding: line, as: UTF8.self), session, reader, where: "line \(n + 1)")
            tpvs += 1
        }
        #expect(tpvs == 64 && reader.opened == 0)
    }

    /// TPVs in gpsd's shape, and what the live source makes of them (tpv.c).
    static let values: [(String, GPSDFixReport, Int)] = [
        // gpsd 3.22's own TPV after an RMC, with its CR.
        (
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-03-14T09:30:01.000Z","ept":0.005,"lat":35.681189167,"lon":139.767071833,"altHAE":52.9000,"altMSL":34.5000,"alt":34.5000,"epv":32.660,"track":164.2300,"magtrack":156.6479,"magvar":-7.6,"speed":0.830,"climb":0.000,"epc":65.32,"geoidSep":18.400,"eph":16.530,"sep":31.730}"#
                + "\r",
            GPSDFixReport(
                time: .init(seconds: 1_773_480_601, nanoseconds: 0), mode: .threeD, latitude: 35.681189167,
                longitude: 139.767071833, altitudeMSL: 34.5, altitudeHAE: 52.9, geoidSeparation: 18.4, eph: 16.53,
                epv: 32.66, speed: 0.83, track: 164.23, device: "/dev/ttyUSB0"),
            3
        ),
        // Nanoseconds as libgps computes them, (long)(0.123 * 1e9); a leap second runs on into the next minute.
        (
            #"{"class":"TPV","mode":3,"time":"2024-02-29T23:59:60.123Z","lat":1,"lon":2}"#,
            GPSDFixReport(
                time: .init(seconds: 1_709_251_200, nanoseconds: 123_000_000), mode: .threeD, latitude: 1, longitude: 2),
            3
        ),
        // 1970-01-01T00:00:00Z is libgps's "no time"; mode 0 is gpsd's "not seen"; one coordinate is no position.
        (#"{"class":"TPV","mode":0,"time":"1970-01-01T00:00:00.000Z","lat":1.5}"#, GPSDFixReport(time: nil, mode: .unknown), 0),
        (#"{"class":"TPV","device":"","mode":1}"#, GPSDFixReport(time: nil, mode: .noFix), 1),
        // A mode out of range is unknown, and given as the line has it (GPSDLogParser names it).
        (#"{"class":"TPV","mode":7}"#, GPSDFixReport(time: nil, mode: .unknown), 7),
        (#"{"class":"TPV","mode":3,"track":360.5}"#, GPSDFixReport(time: nil, mode: .threeD, track: 360.5), 3),
    ]

    @Test(arguments: values)
    func aTPVInGPSDsShapeIsReadByTheShimWithoutLibgps(_ line: String, _ expected: GPSDFixReport, _ mode: Int) throws {
        let reader = Reader(libgps: false)
        #expect(reader.read(line) == .report(expected, mode: mode))
        #expect(reader.opened == 0)
    }

    /// The edges of gpsd's shape (the last second tpv.c reads, nanoseconds to the last digit): read without
    /// libgps, as live.
    @Test(arguments: [
        #"{"class":"TPV","mode":3,"time":"9999-12-31T23:59:59.000Z","lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"time":"2024-02-29T23:59:60.123456789Z","lat":1,"lon":2}"#,
    ])
    func aTPVAtTheEdgesOfGPSDsShapeReadsAsLiveWithoutLibgps(_ line: String) throws {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        let reader = Reader(libgps: false)
        #expect(Self.check(line, session, reader, where: "edge"))
        #expect(reader.opened == 0)
    }

    /// Lines outside gpsd's own shape, which tpv.c leaves to libgps: the replay reads them with libgps, as live
    /// (a damaged value: libgps's values before it); without libgps each is unreadable, with the reason, and
    /// loading libgps is tried once.
    static let leftToLibgps = [
        #"{"class":"TPV", "mode":3,"lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","device":"/dev/tty\u0041","mode":3,"lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"lat":35.6811990001234567,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"lat":1.5,"lon":2.5,"x":[1,2]}"#,
        #"{"class":"TPV","mode":3.0,"lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"lat":null,"lon":2}"#,
        #"{"class":"TPV","mode":3,"lat":"35.68","lon":2}"#,
        #"{"class":"TPV","time":"2026-13-14T09:30:00Z","mode":3}"#,
        #"{"class":"TPV","mode":3,"time":"2026-03-14T09:30:01.000Z","lat":1,"#,
        // A fraction that rounds to a whole second: libgps's nanoseconds are 10⁹, which the shim refuses.
        #"{"class":"TPV","mode":3,"time":"2026-03-14T09:30:00.99999999999999999Z","lat":1,"lon":2}"#,
    ]

    @Test func linesLeftToLibgpsAreReadAsLiveWithLibgpsAndUnreadableWithoutIt() throws {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        let with = Reader(libgps: true)
        let without = Reader(libgps: false)
        for line in Self.leftToLibgps {
            var bytes = Array(line.utf8CString)
            var report = cgps_report()
            let taken = bytes.withUnsafeMutableBufferPointer { cgps_unpack(nil, $0.baseAddress, &report, CGPS_UNPACK_SHIM) }
            #expect(taken == -1, "only libgps reads it: \(line)")
            #expect(Self.live(line, session).kind == CGPS_REPORT_TPV, "a TPV live: \(line)")
            #expect(Self.check(line, session, with, where: "with libgps"))
            guard case .unreadable(let reason) = without.read(line) else {
                Issue.record("read without libgps: \(line)")
                continue
            }
            #expect(
                reason
                    == "TPV outside the shape gpsd writes, which only libgps reads, and libgps cannot be loaded: libgps.so.28: cannot open shared object file")
            #expect(!reason.contains("35.68"))
        }
        #expect(with.opened == 1 && with.reader.usesLibgps)
        #expect(without.opened == 1 && !without.reader.usesLibgps)
    }

    /// The guard's lines (a second "class", or "class" not first): unreadable, as live, libgps or none.
    @Test(arguments: [
        #"{"class":"TPV","mode":3,"lat":1,"lon":2,"class":"SKY"}"#,
        #"{"mode":3,"class":"TPV","lat":1,"lon":2}"#,
        #" {"class":"TPV","mode":3,"lat":1,"lon":2}"#,
    ])
    func aLineTheGuardRefusesIsUnreadable(_ line: String) throws {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        #expect(Self.live(line, session).kind == CGPS_REPORT_UNREADABLE)
        for reader in [Reader(libgps: true), Reader(libgps: false)] {
            #expect(
                reader.read(line)
                    == .unreadable(reason: "TPV naming \"class\" twice, or not first: the live source does not read it"))
            #expect(reader.opened == 0)
        }
    }

    /// A TPV whose "class" is first but spaced from its colon is not one the live source recognises.
    @Test func aTPVWhoseClassIsNotAsGPSDWritesItIsUnreadable() {
        let reader = Reader(libgps: true)
        #expect(
            reader.read(#"{"class" : "TPV","mode":3}"#)
                == .unreadable(reason: "TPV whose \"class\" is not where gpsd writes it: the live source does not read it"))
    }

    /// Through the parser: a log's TPVs with a mode out of range, a latitude out of range, a JSON TPV the guard
    /// refuses, and one outside gpsd's shape without libgps: each counted and listed with its reason.
    @Test func theParserListsWhatTheReaderRefusesAndWhatIsOutOfRange() {
        let log = """
            {"class":"TPV","device":"/dev/pts/1","mode":4,"time":"2026-03-14T09:31:00.000Z","lat":35.7,"lon":139.8}
            {"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-03-14T09:31:01.000Z","lat":95.5,"lon":139.8}
            { "mode":3, "class":"TPV" }
            {"class":"TPV", "device":"/dev/pts/1","mode":3,"time":"2026-03-14T09:31:02.000Z","lat":35.7,"lon":139.8}

            """
        var parser = GPSDLogParser(device: "log.json")
        let reader = Reader(libgps: false)
        Array(log.utf8).withUnsafeBytes { parser.feed($0, readingTPV: reader.reader.read) { _ in } }
        parser.finish(readingTPV: reader.reader.read) { _ in }
        let s = parser.statistics
        #expect(s.tpv == 2 && s.unreadable == 2 && s.outOfRange == 2 && s.addsUp, "\(s)")
        #expect(
            parser.takeProblems().map(\.description) == [
                "line 1: TPV \"mode\" is out of range (read; a fix with it is not usable)",
                "line 2: TPV \"lat\" is out of range (read; a fix with it is not usable)",
                "line 3: TPV naming \"class\" twice, or not first: the live source does not read it",
                "line 4: TPV outside the shape gpsd writes, which only libgps reads, and libgps cannot be loaded: libgps.so.28: cannot open shared object file",
            ])
    }
}
