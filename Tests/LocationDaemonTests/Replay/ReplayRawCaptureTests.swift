import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

/// `locationd replay` of a raw capture with its RTKLIB time tags (`FILE.tag`, as `RawCaptureWriter`
/// writes them): the bytes are read a tag's chunk at a time, at the time the tag gives, so the
/// replay's time (its clock, the events due) is when the bytes came; the fixes keep their own.
@Suite(.timeLimit(.minutes(10))) struct ReplayRawCaptureTests {
    static let walk = PackagePaths.fixture("walk.nmea")
    /// When the capture's bytes came: a week after the walk's NMEA time (a receiver whose time is off).
    static let arrived = UTCTime.seconds(year: 2026, month: 3, day: 21, hour: 12, minute: 0, second: 0)

    /// The walk written as a raw capture, 500 bytes every half second from `arrived`.
    static func capture(in dir: ScratchDirectory) throws -> String {
        let path = dir.file("raw/walk.raw")
        let bytes = try FileIO.read(walk)
        let writer = try RawCaptureWriter(path: path, start: arrived, openTick: 0, fsync: .interval)
        for (n, from) in stride(from: 0, to: bytes.count, by: 500).enumerated() {
            Array(bytes[from..<min(from + 500, bytes.count)]).withUnsafeBytes { writer.append($0, at: arrived + Double(n) * 0.5) }
        }
        #expect(writer.close() == nil)
        return path
    }

    static func chunkCount() throws -> Int { (try FileIO.read(walk).count + 499) / 500 }

    /// The summary and the log, the receiver (the input's path) named `walk` in it.
    static func replay(_ input: String, in dir: ScratchDirectory, events: String = "") throws -> (ReplaySummary, String) {
        let config = try daemonConfig(in: dir)
        let summary = try Replayer.run(Replayer.Options(input: input, config: config, events: try ReplayEvents.parse(events)))
        let log = String(decoding: try dir.read(dir.file("log/logger.jsonl")), as: UTF8.self)
        return (summary, log.replacing("\"device\":\"\(input)\"", with: "\"device\":\"walk\""))
    }

    static func records(_ log: String) -> [LogRecord] { LogFileRecords.parse(Array(log.utf8), name: "log").records }

    @Test func aTaggedCaptureGivesTheLiveRunsFixesReadAtTheTagsTimes() throws {
        let dir = try ScratchDirectory("replay-raw")
        let capture = try Self.capture(in: dir)
        let (tagged, log) = try Self.replay(capture, in: try ScratchDirectory("replay-raw-tagged"))
        let (plain, expected) = try Self.replay(Self.walk, in: try ScratchDirectory("replay-raw-plain"))
        #expect(tagged.files.first?.taggedChunks == (try Self.chunkCount()))
        #expect(tagged.files.first?.tagProblem == nil)
        #expect(tagged.statistics.usableFixes == 360)
        #expect(!log.isEmpty && log == expected, "the same fixes, with their own NMEA time")
        #expect(tagged.firstFixTime == plain.firstFixTime)
        #expect(tagged.text.contains("walk.raw: \(try Self.chunkCount()) chunks read at their time tags\n"))

        // A stop 30 s after the bytes began to come: by the tags' time it falls mid-walk.
        let stop = """
            {"at":"\(UTCTime.format(Self.arrived + 30))","cmd":"stop","client":"logger"}
            """
        let (_, stopped) = try Self.replay(capture, in: try ScratchDirectory("replay-raw-stop"), events: stop)
        let logged = Self.records(stopped)
        #expect(logged.count > 10 && logged.count < 360, "\(logged.count) fixes before the stop")
        // Without the tags the replay's time is the fixes' own, a week before the stop: all logged.
        let untagged = try ScratchDirectory("replay-raw-untagged")
        try untagged.write("walk.raw", try FileIO.read(capture))
        let (_, all) = try Self.replay(untagged.file("walk.raw"), in: untagged, events: stop)
        #expect(Self.records(all).count == 360)
    }

    @Test(arguments: ["cut", "garbage", "back"])
    func aBrokenTagFileIsReportedAndTheBytesStillRead(_ damage: String) throws {
        let dir = try ScratchDirectory("replay-raw-broken")
        let capture = try Self.capture(in: dir)
        var tag = try FileIO.read(capture + ".tag")
        let expect: String
        switch damage {
        case "cut":
            tag = Array(tag.prefix(RTKLIBTimeTag.headerSize + 5 * RTKLIBTimeTag.entrySize + 3))
            expect = "walk.raw.tag is cut short: the bytes after byte 2500 are read without their times"
        case "garbage":
            tag = Array(repeating: 0x41, count: 300)
            expect = "walk.raw.tag is not an RTKLIB time-tag file"
        default:
            // The fourth entry's size goes back to 0.
            for i in 0..<4 { tag[RTKLIBTimeTag.headerSize + 3 * RTKLIBTimeTag.entrySize + 4 + i] = 0 }
            expect = "walk.raw.tag is corrupt (entry 4 goes back): the bytes after byte 1500"
        }
        try dir.write("raw/walk.raw.tag", tag)
        let (summary, log) = try Self.replay(capture, in: dir)
        let (_, expected) = try Self.replay(Self.walk, in: try ScratchDirectory("replay-raw-plain"))
        let problem = try #require(summary.files.first?.tagProblem)
        #expect(problem.contains(expect), "\(problem)")
        #expect(summary.files.first?.taggedChunks == ["cut": 5, "garbage": 0, "back": 3][damage])
        #expect(summary.statistics.usableFixes == 360)
        #expect(!log.isEmpty && log == expected)
    }
}
