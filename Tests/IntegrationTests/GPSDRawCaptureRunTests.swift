import LocationCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
import LocationCodecs
import LocationConfig
import LocationProtocol
import LocationValues
#endif

/// `raw_log` with `[source] type = gpsd` (issue #50; docs/sources.md, "Raw capture from gpsd"),
/// with real parts: the built daemon, a gpsd fed by gpsfake, RTKLIB reading what was written.
@Suite(
    .timeLimit(.minutes(10)), .serialized,
    .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
struct GPSDRawCaptureRunTests {
    /// A logger that keeps each receiver's bytes, and a reduced-accuracy client that asks to.
    static let clients = """
        [client.logger]
        log = logger.jsonl
        raw_log = raw/%r.raw
        distance_filter = none
        authorization = always
        updating = on
        in_use = on
        usage = Logs coordinates and the receivers' bytes

        [client.rough]
        raw_log = rough/%r.raw
        precise = off
        authorization = always
        updating = on
        in_use = on
        usage = Roughly where
        """

    /// The raw capture files in `directory`, by name.
    static func captures(in directory: String) -> [String] {
        ((try? FileIO.list(directory)) ?? []).filter { $0.hasSuffix(".raw") }.sorted()
    }

    @Test(.enabled(if: ExternalTool.isAvailable("str2str", "convbin"), "needs str2str and convbin (rtklib)"))
    func eachReceiverOfGpsdIsKeptInItsOwnFileThatRTKLIBReads() async throws {
        let sandbox = try DaemonSandbox("gpsd-raw")
        let nmea = PackagePaths.path("fixtures/receivers/good.nmea")
        let text = try GPSFake.sentences(of: nmea)
        let ubx = sandbox.file("ubx.log")
        let binary = try UBXMessages.writeLog(epochs: 4, to: ubx)
        let fake = try await GPSFake.start(logs: [nmea, ubx], options: .init(cycle: 0.01, once: true, gated: true, linger: 120))
        defer { fake.stop() }
        try sandbox.writeConfig(port: fake.port, fsync: "interval", clients: Self.clients)
        let daemon = try sandbox.startDaemon()
        defer { daemon.signal(SIGTERM) }
        try #require(await DaemonRunTests.waitForConnection(daemon), "\(daemon.stderr)")
        // Released once gpsd confirmed both raw watches: it forwards only what comes after them.
        let watching = await waitUntil(timeout: 60) { daemon.stderr.occurrences(of: "in raw mode 2, on a connection of its own") == 2 }
        try #require(watching, "\(daemon.stderr)")
        #expect(LoopbackTCP.connections(toPort: fake.port, of: daemon.pid) == 3, "the reader's and one per receiver")
        fake.release()

        // Each receiver in its own file, named by its path's last part as its records name it.
        let raw = sandbox.file("log/raw")
        let whole = await waitUntil(timeout: 120) {
            let sizes = Set(Self.captures(in: raw).map { (try? FileIO.read(raw + "/" + $0))?.count ?? 0 })
            return sizes == [text.count, binary.count]
        }
        #expect(whole, "\(Self.captures(in: raw)) \(daemon.stderr)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        let device = try #require(sandbox.records().first?.device, "no record: \(daemon.stderr)")
        let nmeaFile = "\(raw)/\(LogFilePattern.receiverName(device)).raw"
        #expect(try FileIO.read(nmeaFile) == text, "the sentences gpsfake sent, in order")
        let ubxFile = try #require(Self.captures(in: raw).map { "\(raw)/\($0)" }.first { $0 != nmeaFile })
        #expect(try FileIO.read(ubxFile) == binary, "the UBX messages, their INF text that reads like gpsd's WATCH included")
        #expect(!FileIO.exists(sandbox.file("log/rough")), "a client without full accuracy captures nothing")

        // RTKLIB reads both: the tags time every byte, str2str plays each back whole, convbin makes
        // RINEX of the u-blox receiver's RXM-RAWX.
        for (file, bytes) in [(nmeaFile, text), (ubxFile, binary)] {
            let tags = try #require(RTKLIBTimeTag.parse(try FileIO.read(file + ".tag")), "\(file).tag")
            #expect(tags.chunks.last?.end == UInt64(bytes.count))
            let played = try await RTKLIB.playBack(file, into: file + ".played", count: bytes.count)
            #expect(played.bytes == bytes, "str2str played \(played.bytes.count) of \(bytes.count) bytes: \(played.output)")
        }
        let epochs = try await RTKLIB.rinexEpochs(of: ubxFile, out: sandbox.file("ubx.obs"))
        #expect(epochs.filter { $0.hasPrefix("> 2026 03 15 10 00 0") }.count == 4, "\(epochs)")
        // The journal named the file.
        #expect(daemon.stderr.contains("raw capture of \(device) for client logger: \(nmeaFile)"), "\(daemon.stderr)")
    }

    @Test func aReloadAddsAndTakesAwayTheRawConnections() async throws {
        let sandbox = try DaemonSandbox("gpsd-raw-reload")
        let good = PackagePaths.path("fixtures/receivers/good.nmea")
        let poor = PackagePaths.path("fixtures/receivers/poor.nmea")
        let fake = try await GPSFake.start(logs: [good, poor], options: .init(cycle: 0.1, once: false, gated: false))
        defer { fake.stop() }
        try sandbox.writeConfig(port: fake.port, clients: DaemonSandbox.logger(filter: "none"))
        let daemon = try sandbox.startDaemon()
        defer { daemon.signal(SIGTERM) }
        let connections = { LoopbackTCP.connections(toPort: fake.port, of: daemon.pid) }

        // Without a raw_log: fixes from both receivers, one connection to gpsd, no raw thread.
        let both = await waitUntil(timeout: 60) { Set(sandbox.records().compactMap(\.device)).count == 2 || sandbox.records().count >= 20 }
        try #require(both, "\(daemon.stderr)")
        #expect(connections() == 1)
        #expect(ProcFS.threads(named: "gpsd-raw", of: daemon.pid).isEmpty)
        #expect(!daemon.stderr.contains("raw mode 2"))

        // A reload gives the logger a raw_log: one more connection per receiver, and their files.
        try sandbox.writeConfig(port: fake.port, clients: DaemonSandbox.logger(filter: "none") + "\nraw_log = raw/%r.raw")
        daemon.signal(SIGHUP)
        #expect(await waitUntil(timeout: 60) { connections() == 3 }, "\(connections()) connections: \(daemon.stderr)")
        let raw = sandbox.file("log/raw")
        #expect(await waitUntil(timeout: 60) { Self.captures(in: raw).count == 2 }, "\(daemon.stderr)")

        // And a reload without it takes them away again; the files stop growing.
        try sandbox.writeConfig(port: fake.port, clients: DaemonSandbox.logger(filter: "none"))
        daemon.signal(SIGHUP)
        #expect(await waitUntil(timeout: 60) { connections() == 1 }, "\(connections()) connections: \(daemon.stderr)")
        #expect(await waitUntil(timeout: 60) { ProcFS.threads(named: "gpsd-raw", of: daemon.pid).isEmpty }, "the raw thread ended")
        let sizes = Self.captures(in: raw).map { (try? FileIO.read(raw + "/" + $0))?.count ?? 0 }
        let records = sandbox.records().count
        #expect(await waitUntil(timeout: 60) { sandbox.records().count >= records + 5 }, "still logging")
        #expect(Self.captures(in: raw).map { (try? FileIO.read(raw + "/" + $0))?.count ?? 0 } == sizes, "nothing kept once the raw_log is gone")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0)
    }
}
