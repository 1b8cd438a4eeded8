#if canImport(Glibc)
import Glibc
#endif
import LocationClient
import LocationCore
import LocationProtocol
import LocationValues
@testable import LocationDaemon
import Dispatch
import Testing
import TestSupport

/// A control server on a socket in a scratch directory, with a fake handler.
final class ServerFixture {
    let directory: ScratchDirectory
    let handler: FakeControlHandler
    let server: ControlServer
    var path: String { server.path }

    /// A server whose handler `makeHandler` builds, given the scratch
    /// directory (the fake's clients keep their logs there).
    init(
        _ label: String = "control", limits: ControlServer.Limits = ControlServer.Limits(), socketGroup: String? = nil,
        adjustPeer: (@Sendable (ControlPeer) -> ControlPeer)? = nil, socketMode: mode_t = ControlServer.socketMode,
        apps: AppDirectory = AppDirectory(),
        handler makeHandler: (String) -> FakeControlHandler = { FakeControlHandler(logDirectory: $0) }
    ) throws {
        directory = try ScratchDirectory(label)
        handler = makeHandler(directory.path)
        server = try ControlServer(
            path: directory.file("control.sock"), socketGroup: socketGroup, handler: handler, limits: limits,
            adjustPeer: adjustPeer, executor: QueueExecutor.shared, socketMode: socketMode, apps: apps)
        try server.start()
    }

    deinit {
        server.stop()
    }

    /// A new connection.
    func client() throws -> TestClient {
        try TestClient(path: path)
    }

    /// Waits (at most `seconds`) until `condition` holds; returns whether it did.
    func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
        await ServerFixture.eventually(within: seconds, condition)
    }

    static func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
        await waitUntil(timeout: seconds, every: 0.01, condition)
    }
}

/// Runs the server's handler calls on a dispatch queue of their own rather
/// than the cooperative pool that every test shares: on a two-core machine
/// a few tests that block their thread (waiting for gpsbabel, say) would
/// otherwise hold up the fake handler's answers for seconds.
final class QueueExecutor: TaskExecutor {
    static let shared = QueueExecutor()
    private let queue = DispatchQueue(label: "control-tests.handler", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// A control connection for tests. Every wait polls (`waitUntil`,
/// `eventualValue`) rather than blocking a thread: the server's handler
/// calls run as tasks on the same small cooperative pool the tests run on,
/// and a test blocked in `poll(2)` would keep them from running.
final class TestClient {
    struct Timeout: Error, CustomStringConvertible {
        var what: String
        var description: String { "nothing from the server within the deadline (\(what))" }
    }

    let connection: ControlClient

    init(path: String) throws {
        connection = try ControlClient(path: path, timeout: 5)
    }

    /// Sends bytes as they are.
    func send(raw bytes: [UInt8], timeout: Double = 30) async throws {
        var offset = 0
        let sent = try await waitUntil(timeout: timeout, every: 0.001) {
            offset += try connection.sendSome(bytes[offset...])
            return offset == bytes.count
        }
        guard sent else { throw Timeout(what: "sending") }
    }

    /// Sends a request line.
    func send(_ request: ControlRequest) async throws {
        try await send(raw: Array(request.line().utf8))
    }

    /// Sends a text line (a `\n` is added).
    func send(line: String) async throws {
        try await send(raw: Array((line + "\n").utf8))
    }

    /// The next line; `nil` when the server closed the connection. The
    /// deadline is a safety bound for a loaded machine, not a timing check.
    func line(timeout: Double = 30) async throws -> [UInt8]? {
        let polled = try await eventualValue(timeout: timeout, every: 0.001) { () throws -> ControlClient.Poll? in
            let poll = try connection.pollLine()
            return poll == .nothing ? nil : poll
        }
        switch polled {
        case .line(let line)?: return line
        case .end?: return nil
        case .nothing?, nil: throw Timeout(what: "reading a line")
        }
    }

    /// The next line as JSON.
    func json(timeout: Double = 30) async throws -> JSONValue? {
        guard let line = try await line(timeout: timeout) else { return nil }
        return try JSONValue.parse(line)
    }

    /// The next line decoded.
    func message() async throws -> ServerMessage? {
        guard let line = try await line() else { return nil }
        return try ServerMessage.decode(line)
    }

    /// Sends a request and reads its reply.
    func request(_ operation: ControlRequest.Operation, id: JSONValue? = nil) async throws -> ControlReply {
        try await send(ControlRequest(id: id, operation))
        guard case .reply(let reply)? = try await message() else { throw Timeout(what: "a reply") }
        return reply
    }

    /// Skips `count` lines.
    func skip(_ count: Int) async throws {
        for _ in 0..<count { _ = try await line() }
    }

    /// The lines that have arrived, without waiting.
    func available() throws -> [[UInt8]] {
        try connection.availableLines()
    }

    /// Shuts down the sending side.
    func finishSending() {
        connection.finishSending()
    }
}
