#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem
@testable import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// The program server on its own, with a fake daemon behind it: what a slow
/// program costs the others, and what a `?POLL` may still say after the
/// client's permission changed.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ProgramServerTests {
    final class Running {
        let directory: ScratchDirectory
        let sinks = ProgramSinks()
        /// The audit records the server handed over (refused peers).
        let audited = AuditTrail()
        let server: ProgramServer
        let task: Task<Void, Never>
        var socket: String { directory.file("qgis.gpsd.sock") }

        /// `keys` are more lines of `[client.qgis]`.
        init(_ label: String, limits: ControlServer.Limits, keys: [String] = []) throws {
            directory = try ScratchDirectory(label)
            let config = try DaemonConfig.parse(
                (["[client.qgis]", "gpsd_socket = \(directory.file("qgis.gpsd.sock"))"] + keys).joined(separator: "\n") + "\n",
                file: "test")
            let server = try ProgramServer(
                config: config, sinks: sinks, handler: FakeControlHandler(clients: ["qgis"]), audit: audited.record,
                limits: limits)
            self.server = server
            task = Task { try? await server.run() }
        }

        func stop() async {
            server.stop()
            await task.value
        }

        /// Waits until `count` programs watch.
        func watching(_ count: Int) async -> Bool {
            await ServerFixture.eventually { sinks.programs.filter(\.watching).count == count }
        }

        func deliver(_ range: Range<Int>) {
            for i in range { sinks.deliver(Delivery(client: "qgis", fix: walkFix(i, metres: Double(i)), accuracy: .full)) }
        }
    }

    @Test func aProgramThatDoesNotReadIsCutOffAndTheOthersGetEveryFix() async throws {
        let running = try Running("programs-slow", limits: ControlServer.Limits(watcherBacklog: 16 << 10))
        let fast = try ProgramSocket(path: running.socket)
        let slow = try ProgramSocket(path: running.socket)
        fast.send("?WATCH={\"enable\":true,\"json\":true};")
        slow.send("?WATCH={\"enable\":true,\"json\":true};")
        try #require(await running.watching(2))
        // Far more than the slow one's socket buffer and backlog hold; the fast one keeps up batch by
        // batch (a batch, about 5 KiB of TPVs, is queued at once: it must fit in the backlog).
        let total = 2000
        for start in stride(from: 0, to: total, by: 20) {
            running.deliver(start..<(start + 20))
            let expected = start + 20
            try #require(await ServerFixture.eventually(within: 20) { fast.poll(); return fast.reports("TPV").count >= expected })
        }
        let times = fast.reports("TPV").compactMap { $0["time"]?.stringValue }
        #expect(times.count == total)
        #expect(times == times.sorted())
        #expect(await ServerFixture.eventually { running.sinks.counts["qgis"]?.cutOff == 1 })
        #expect(running.server.statistics.cutOff == 1)
        // The slow one, reading at last, finds its stream ended short of the fixes.
        #expect(await ServerFixture.eventually { !slow.poll() })
        #expect(slow.reports("TPV").count < total)
        #expect(running.sinks.programs.count == 1)
        await running.stop()
    }

    @Test func aPeerBeyondTheConnectionLimitIsToldBusyAndCountedForItsClient() async throws {
        // Programs never may change state: with nothing kept for the privileged, two in all.
        let running = try Running(
            "programs-busy", limits: ControlServer.Limits(maximumConnections: 2, reservedForPrivileged: 0))
        let first = try ProgramSocket(path: running.socket)
        let second = try ProgramSocket(path: running.socket)
        first.send("?WATCH={\"enable\":true,\"json\":true};")
        second.send("?WATCH={\"enable\":true,\"json\":true};")
        try #require(await running.watching(2))
        let third = try ProgramSocket(path: running.socket)
        #expect(await ServerFixture.eventually { !third.poll() })
        let error = third.reports("ERROR").first?["message"]?.stringValue
        #expect(error?.contains("already serves 2 program connections") == true, "\(third.reports("ERROR"))")
        #expect(third.reports("VERSION").isEmpty)
        #expect(await ServerFixture.eventually { running.sinks.counts["qgis"] == ProgramCounts(busy: 1) })
        #expect(running.server.statistics.refusedBusy == 1)
        // A limit is no refusal of who the peer is: nothing audited. The two served lose nothing.
        #expect(running.audited.all.isEmpty)
        running.deliver(0..<3)
        #expect(await ServerFixture.eventually {
            first.poll()
            second.poll()
            return first.reports("TPV").count == 3 && second.reports("TPV").count == 3
        })
        await running.stop()
    }

    @Test(
        .enabled(if: getuid() == 0, "needs root, to run a program as nobody"),
        .enabled(if: ExternalTool.isAvailable("setpriv", "python3"), "needs setpriv (util-linux) and python3"))
    func aPeerNotInTheAllowListIsRefusedCountedAndAuditedForItsClient() async throws {
        let running = try Running("programs-allow", limits: ControlServer.Limits(), keys: ["allow_users = root"])
        chmod(running.directory.path, 0o755)
        let nobody = try await ChildProcess.run(ProgramSocketAccessTests.connectAsNobody + [running.socket], timeout: 60)
        #expect(nobody.output.contains("uid 65534 is not in allow_users or allow_groups of [client.qgis]"), "\(nobody.output) \(nobody.stderr)")
        #expect(!nobody.output.contains("VERSION"))
        #expect(await ServerFixture.eventually { running.sinks.counts["qgis"] == ProgramCounts(refused: 1) })
        #expect(running.server.statistics.refusedPeers == 1 && running.server.statistics.accepted == 0)
        let record = try #require(running.audited.all.first)
        #expect(running.audited.all.count == 1)
        #expect(record.command == "connect" && record.client == "qgis" && record.peer.uid == 65534)
        // The same peer again and again: every refusal counted, the audit log written once a minute, not per attempt.
        for _ in 0..<3 {
            let again = try await ChildProcess.run(ProgramSocketAccessTests.connectAsNobody + [running.socket], timeout: 60)
            #expect(again.output.contains("is not in allow_users"), "\(again.output) \(again.stderr)")
        }
        #expect(await ServerFixture.eventually { running.sinks.counts["qgis"] == ProgramCounts(refused: 4) })
        #expect(running.audited.all.count == 1)
        // Root is let in.
        let root = try ProgramSocket(path: running.socket)
        #expect(await ServerFixture.eventually { root.poll(); return root.reports("VERSION").count == 1 })
        await running.stop()
    }

    @Test func pollForgetsTheLastFixAndSkyWhenTheClientsPermissionChanges() async throws {
        let running = try Running("programs-poll", limits: ControlServer.Limits())
        let program = try ProgramSocket(path: running.socket)
        program.send("?WATCH={\"enable\":true,\"json\":true};")
        try #require(await running.watching(1))
        running.deliver(0..<3)
        let satellite = try #require(Satellite(prn: 7, elevation: 30, azimuth: 120, snr: 41, used: true))
        running.sinks.deliverSky(SkyView(hdop: 0.9, device: "/dev/ttyUSB0", satellites: [satellite]), to: ["qgis"])
        #expect(await ServerFixture.eventually { program.poll(); return program.reports("TPV").count == 3 && program.reports("SKY").count == 1 })
        program.send("?POLL;")
        #expect(await ServerFixture.eventually { program.poll(); return program.reports("POLL").count == 1 })
        let first = try #require(program.reports("POLL").first)
        #expect(first["tpv"]?.arrayValue?.count == 1)
        #expect(first["sky"]?.arrayValue == [program.reports("SKY")[0]], "\(first)")
        // Watching stops: the POLL still says what this program got.
        program.send("?WATCH={\"enable\":false};")
        try #require(await running.watching(0))
        program.send("?POLL;")
        #expect(await ServerFixture.eventually { program.poll(); return program.reports("POLL").count == 2 })
        #expect(program.reports("POLL").last?["sky"]?.arrayValue?.count == 1)
        // The grant changed (never, reduced, services off): a POLL no longer repeats what came before.
        running.sinks.grantChanged("qgis")
        program.send("?POLL;")
        #expect(await ServerFixture.eventually { program.poll(); return program.reports("POLL").count == 3 })
        #expect(program.reports("POLL").last?["tpv"]?.arrayValue?.isEmpty == true)
        #expect(program.reports("POLL").last?["sky"]?.arrayValue?.isEmpty == true)
        await running.stop()
    }
}

/// Audit records, collected from the server's thread.
final class AuditTrail: Sendable {
    private let records = Mutex<[AuditRecord]>([])

    @Sendable func record(_ record: AuditRecord) { records.withLock { $0.append(record) } }

    var all: [AuditRecord] { records.withLock { $0 } }
}

/// A program on a Unix socket: sends lines, reads what comes without blocking.
final class ProgramSocket {
    let fd: Int32
    private var received: [UInt8] = []

    init(path: String) throws {
        let address = try #require(UnixSocketAddress(path: path))
        fd = try UnixSocketAddress.makeSocket(nonBlocking: false)
        let connected = address.withSockaddr { connect(fd, $0, $1) }
        try #require(connected == 0, "connect: \(String(cString: strerror(errno)))")
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(fd)
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads what is there; `false` once the server closed the connection.
    @discardableResult
    func poll() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                received.append(contentsOf: buffer[0..<n])
                continue
            }
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        }
    }

    /// The objects of class `name` received so far.
    func reports(_ name: String) -> [JSONValue] {
        received.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let value = try? JSONValue.parse(Array(line)), value["class"]?.stringValue == name else { return nil }
            return value
        }
    }
}
