import LocationCore
import LocationProtocol
import LocationValues
import Testing
import TestSupport

@testable import LocationDaemon

/// `locationd replay` of gpsd JSON logs: told from NMEA by their first lines,
/// each TPV's `device` its receiver, chosen by the daemon's rule; the same
/// two receivers recorded as NMEA and as gpsd's JSON give the same choice.
@Suite(.timeLimit(.minutes(10))) struct GPSDLogReplayTests {
    static let good = PackagePaths.path("fixtures/receivers/good.nmea")
    static let poor = PackagePaths.path("fixtures/receivers/poor.nmea")
    /// gpsd's report of the two: good.nmea is /dev/pts/1, poor.nmea /dev/pts/2 (fixtures/receivers/README.md).
    static let log = PackagePaths.path("fixtures/receivers/two-receivers.json")
    static let devices = ["/dev/pts/1": good, "/dev/pts/2": poor]

    static let clients = DaemonFixtures.logger + """


        [client.pinned]
        log = pinned.jsonl
        distance_filter = none
        desired_accuracy = best
        authorization = always
        updating = on
        receiver = /dev/pts/2
        """

    /// The records of each client after replaying `inputs`.
    static func replay(_ inputs: [String]) throws -> (ReplaySummary, logger: [LogRecord], pinned: [LogRecord]) {
        let dir = try ScratchDirectory("replay-gpsd")
        let summary = try Replayer.run(Replayer.Options(inputs: inputs, config: try daemonConfig(in: dir, clients: clients)))
        return (summary, try logRecords(dir.file("log/logger.jsonl")), try logRecords(dir.file("log/pinned.jsonl")))
    }

    /// Each record's time and receiver, the gpsd device named by the recording it stands for.
    static func choice(_ records: [LogRecord]) -> [String] {
        records.map { "\(UTCTime.format($0.time)) \(devices[$0.device ?? ""] ?? $0.device ?? "none")" }
    }

    @Test func aLogOfTwoReceiversIsChosenFromAsTheirNMEARecordingsAre() throws {
        let (json, records, pinned) = try Self.replay([Self.log])
        let (_, nmea, _) = try Self.replay([Self.good, Self.poor])
        #expect(json.files.map(\.format) == [.gpsdJSON])
        #expect(json.gpsd.receivers.map(\.device) == ["/dev/pts/1", "/dev/pts/2"])
        // Every record names its receiver; the same receiver at every epoch, the same one switch.
        #expect(records.allSatisfy { $0.device == "/dev/pts/1" || $0.device == "/dev/pts/2" })
        #expect(Self.choice(records) == Self.choice(nmea))
        let devices = records.map(\.device)
        #expect(zip(devices, devices.dropFirst()).filter { $0 != $1 }.count == 1)
        #expect(records.filter { $0.time <= 1_773_480_619 }.allSatisfy { $0.device == "/dev/pts/1" })
        // gpsd computes what the NMEA parser computes (docs/nmea.md): the same positions and estimates.
        #expect(records.map(\.latitude) == nmea.map(\.latitude))
        #expect(records.map(\.horizontalError) == nmea.map(\.horizontalError))
        // A client pinned to one of the log's receivers gets that one's 40 epochs.
        #expect(pinned.count == 40 && pinned.allSatisfy { $0.device == "/dev/pts/2" })
    }

    @Test func nmeaAndGPSDRecordingsMixAndInterleaveByTime() throws {
        // The poor receiver alone as gpsd reported it, beside the good one's NMEA.
        let dir = try ScratchDirectory("replay-mixed")
        let lines = String(decoding: try FileIO.read(Self.log), as: UTF8.self).split(whereSeparator: \.isNewline)
        let poorOnly = try dir.write("poor.json", lines.filter { !$0.contains("/dev/pts/1") }.joined(separator: "\n") + "\n")
        let (summary, records, _) = try Self.replay([Self.good, poorOnly])
        let (_, nmea, _) = try Self.replay([Self.good, Self.poor])
        #expect(summary.files.map(\.format) == [.nmea, .gpsdJSON])
        #expect(summary.statistics.epochs == 20 && summary.gpsd.epochs == 40)
        #expect(Self.choice(records) == Self.choice(nmea))
        #expect(summary.text.contains("\(Self.good): NMEA, 6110 bytes, 100 sentences, 20 epochs, 20 usable fixes"))
        #expect(summary.text.contains("\(poorOnly): gpsd JSON,"))
        #expect(summary.text.contains("0 unreadable), 40 epochs (/dev/pts/2 40), 40 usable fixes"), "\(summary.text)")
        #expect(summary.text.contains("NMEA epochs: 20, usable fixes 20"))
        #expect(summary.text.contains("gpsd epochs: 40 (/dev/pts/2 40), usable fixes 40"))
    }

    @Test func aGarbledLogIsReplayedAsFarAsItCanBeReadAndCounted() throws {
        let dir = try ScratchDirectory("replay-garbled")
        var lines = String(decoding: try FileIO.read(Self.log), as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        // A TPV broken off: libgps's to read, as live (it reads the class and nothing else: a TPV without a time).
        lines[40] = String(lines[40].prefix(30))
        lines[41] = "\u{7f}ELF garbage"
        lines[lines.count - 1] = String(lines[lines.count - 1].prefix(20))  // the recording cut off
        let path = try dir.write("garbled.json", lines.joined(separator: "\n"))
        let (summary, records, _) = try Self.replay([path])
        let g = summary.gpsd
        #expect(g.unreadable == 1 && g.cutOff == 1 && g.addsUp, "\(g)")
        #expect(summary.text.contains("+ unreadable 1 + cut off at the end 1"), "\(summary.text)")
        #expect(!records.isEmpty && records.count < 40)
    }

    /// A file's first bytes → its format while more may follow (`nil`: not told yet) and at the end of the file.
    static let heads: [(String, ReplayFormat?, ReplayFormat)] = [
        (#"{"class":"VERSION","release":"3.22"}\#n{"class":"TPV","mode":1}\#n"#, .gpsdJSON, .gpsdJSON),
        ("# a comment\n\n  {\"class\":\"TPV\",\"mode\":1}\n", .gpsdJSON, .gpsdJSON),
        (#"{"class":"GST","rms":1}\#n"#, .gpsdJSON, .gpsdJSON),
        // gpspipe -r and -R captures begin with gpsd's greeting too, then the NMEA (gpsd's corpus has one).
        (
            #"{"class":"VERSION","release":"3.23"}\#n{"class":"DEVICES","devices":[]}\#n{"class":"WATCH","raw":2}\#n"#
                + #"{"class":"DEVICE","path":"/dev/ttyUSB1","activated":"2026-03-14T09:30:00.000Z"}\#n$GPGGA,1*00\#n"#,
            .nmea, .nmea
        ),
        ("# Name: a receiver\n$GPGGA,093000.00*60\n", .nmea, .nmea),
        ("!AIVDM,1,1*26\n", .nmea, .nmea),
        ("\u{00}\u{01}", .nmea, .nmea),
        ("$GPGGA,0930", .nmea, .nmea),
        // Not told yet: only a comment, a greeting or an unfinished object so far; at the end, what has not told is
        // NMEA, as every input was (an unfinished object is a log cut off).
        ("# Name: a rec", nil, .nmea),
        (#"{"class":"VERSION"}\#n"#, nil, .nmea),
        (#"{"class":"VERSION"}\#n{"class":"TP"#, nil, .gpsdJSON),
        ("", nil, .nmea),
    ]

    @Test(arguments: heads)
    func theFirstDecidingLineTellsTheFormat(_ head: String, _ open: ReplayFormat?, _ ended: ReplayFormat) {
        #expect(ReplayFormat.detect(Array(head.utf8), ended: false) == open)
        #expect(ReplayFormat.detect(Array(head.utf8), ended: true) == ended)
    }
}
