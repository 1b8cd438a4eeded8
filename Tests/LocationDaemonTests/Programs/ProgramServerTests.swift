#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem
@testable import LocationDaemon
import Testing
import TestSupport

/// The program server on its own, with a fake daemon behind it: what a slow
/// program costs the others, and what a `?POLL` may still say after the
/// client's permission changed.
@Suite(.serialized) struct ProgramServerTests {
    final class Running {
        let directory: ScratchDirectory
        let sinks = ProgramSinks()
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
                config: config, sinks: sinks, handler: FakeControlHandler(clients: ["qgis"]), audit: { _ in },
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

    @Test func pollForgetsTheLastFixWhenTheClientsPermissionChanges() async throws {
        let running = try Running("programs-poll", limits: ControlServer.Limits())
        let program = try ProgramSocket(path: running.socket)
        program.send("?WATCH={\"enable\":true,\"json\":true};")
        try #require(await running.watching(1))
        running.deliver(0..<3)
        #expect(await ServerFixture.eventually { program.poll(); return program.reports("TPV").count == 3 })
        program.send("?POLL;")
        #expect(await ServerFixture.eventually { program.poll(); return program.reports("POLL").count == 1 })
        #expect(program.reports("POLL").first?["tpv"]?.arrayValue?.count == 1)
        // The grant changed (never, reduced, services off): a POLL no longer repeats what came before.
        running.sinks.grantChanged("qgis")
        program.send("?POLL;")
        #expect(await ServerFixture.eventually { program.poll(); return program.reports("POLL").count == 2 })
        #expect(program.reports("POLL").last?["tpv"]?.arrayValue?.isEmpty == true)
        await running.stop()
    }
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
