#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

/// `raw_log` through the gate (locationd.conf(5)): a receiver's bytes are kept, unchanged and
/// tagged, only while the client may have full-accuracy fixes, and stop at once when it may not.
@Suite(.timeLimit(.minutes(10))) struct RawCaptureTests {
    static func clients(_ extra: String = "") -> String {
        DaemonFixtures.logger.replacingOccurrences(of: "log = logger.jsonl", with: "log = logger.jsonl\nraw_log = raw/%r.raw") + "\n" + extra
    }

    static let reduced = """
        [client.rough]
        raw_log = rough/%r.raw
        precise = off
        authorization = always
        updating = on
        in_use = on
        usage = Roughly where
        """

    @Test func bytesAreKeptOnlyWhileTheClientMayHaveFullAccuracyFixes() throws {
        let dir = try ScratchDirectory("raw-gate")
        let core = try DaemonCore(config: try daemonConfig(in: dir, clients: Self.clients(Self.reduced)), seed: 1, clock: ManualClock().clock)
        #expect(core.sourceBoard.capturesRaw, "a raw_log asks the readers for their bytes")
        let first: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x00, 0x0A, 0x24, 0x47, 0x4E, 0x0D, 0x0A]
        core.ingest(.raw(device: "/dev/ttyACM0", bytes: first, time: 1_773_480_000))
        core.ingest(.raw(device: "/dev/ttyACM0", bytes: [0xD3, 0x00], time: 1_773_480_000.5))
        let before = (try? dir.read("log/raw/ttyACM0.raw")) ?? []
        #expect(before.isEmpty, "gathered until the pause")
        core.writeBatchedLines()
        #expect(try dir.read("log/raw/ttyACM0.raw") == first + [0xD3, 0x00])
        let tags = try #require(RTKLIBTimeTag.parse(try dir.read("log/raw/ttyACM0.raw.tag")))
        #expect(tags.chunks == [.init(tick: 0, end: 11), .init(tick: 500, end: 13)])
        #expect(!FileIO.exists(dir.file("log/rough")), "a reduced-accuracy client never gets raw bytes")
        let named = core.statusReport().status.clients.first?.rawLogs
        #expect(named == [dir.file("log/raw/ttyACM0.raw")], "status names the file")
        let decoded = try ClientStatus(json: try #require(core.statusReport().status.clients.first).json)
        #expect(decoded.rawLogs == named)
        // Updates stop: the next bytes are not kept, and the file is closed at once.
        _ = core.handle(request(.stop(client: "logger")), from: rootPeer)
        core.ingest(.raw(device: "/dev/ttyACM0", bytes: [1, 2, 3], time: 1_773_480_001))
        core.writeBatchedLines()
        #expect(try dir.read("log/raw/ttyACM0.raw") == first + [0xD3, 0x00])
        #expect(core.statusReport().status.clients.first?.rawLogs == [], "closed at once")
        core.shutdown()
    }

    @Test(.timeLimit(.minutes(1)))
    func aPtyFedAUbloxCaptureIsKeptByteForByte() async throws {
        let capture = PackagePaths.gpsdCaptures + "/gpsd-corpus/ublox-8.log"
        let bytes = try FileIO.read(capture)
        let dir = try ScratchDirectory("raw-pty")
        let core = try DaemonCore(config: try daemonConfig(in: dir, clients: Self.clients(), fsync: "interval"), seed: 1, clock: ManualClock().clock)
        let receiver = try NMEAFakeReceiver()
        let service = SourceService(source: NMEADeviceSource(path: receiver.devicePath, baud: 9600), core: core)
        let name = LogFilePattern.receiverName(receiver.devicePath)
        let path = dir.file("log/raw/\(name).raw")
        receiver.releaseTerminal()
        // The source opens the device first: what comes before it opened is not the receiver's to the daemon.
        #expect(await waitUntil(timeout: 30) { core.sourceBoard.counts.map { $0.connections > 0 } ?? false })
        // As bytes: the capture is not all UTF-8 (a receiver's stream need not be).
        try FileIO.writeAll(receiver.controller, bytes, what: "the receiver's pty")
        let whole = await waitUntil(timeout: 30) { (try? FileIO.read(path))?.count == bytes.count }
        #expect(whole, "kept \((try? FileIO.read(path))?.count ?? 0) of \(bytes.count) bytes")
        await service.shutdown()
        core.shutdown()
        #expect(try FileIO.read(path) == bytes)
        let tags = try #require(RTKLIBTimeTag.parse(try FileIO.read(path + ".tag")))
        #expect(tags.chunks.last?.end == UInt64(bytes.count))
        #expect(tags.chunks.count < bytes.count / 64, "chunks as read, not a tag per byte")
    }

    @Test(.enabled(if: ExternalTool.isAvailable("convbin"), "needs convbin (rtklib)"), .timeLimit(.minutes(1)))
    func convbinMakesRINEXOfTheCapturedUBX() async throws {
        let dir = try ScratchDirectory("raw-convbin")
        let core = try DaemonCore(config: try daemonConfig(in: dir, clients: Self.clients(), fsync: "interval"), seed: 1, clock: ManualClock().clock)
        // Three epochs, each read in two pieces cut inside a message, NMEA between them.
        for k in 0..<3 {
            let message = UBXMessages.rawx(tow: 36_000 + Double(k))
            let time = 1_773_482_400 + Double(k)
            core.ingest(.raw(device: "/dev/ttyACM0", bytes: Array(message.prefix(50)), time: time))
            core.ingest(.raw(device: "/dev/ttyACM0", bytes: Array(message.dropFirst(50)) + Array("$GPTXT,01,01,02,x*00\r\n".utf8), time: time + 0.01))
        }
        core.writeBatchedLines()
        core.shutdown()
        let epochs = try await RTKLIB.rinexEpochs(of: dir.file("log/raw/ttyACM0.raw"), out: dir.file("out.obs"))
        #expect(epochs.filter { $0.hasPrefix("> 2026 03 15 10 00 0") }.count == 3, "\(epochs)")
    }
}
