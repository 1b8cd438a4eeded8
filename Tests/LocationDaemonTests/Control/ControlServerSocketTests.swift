#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationSystem
@testable import LocationDaemon
import Testing
import TestSupport

/// Setting the socket up: stale sockets, live daemons, things that are not
/// sockets, mode and group, removal at stop.
@Suite(.timeLimit(.minutes(10))) struct ControlServerSocketTests {
    /// A socket file with nobody listening, as a killed daemon leaves it.
    static func leaveStaleSocket(at path: String) throws {
        let fd = try UnixSocketAddress.makeSocket(nonBlocking: false)
        defer { close(fd) }
        let address = try #require(UnixSocketAddress(path: path))
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        #expect(bound == 0)
    }

    @Test func aSocketLeftByADeadDaemonIsReplaced() async throws {
        let directory = try ScratchDirectory("stale")
        let path = directory.file("control.sock")
        try Self.leaveStaleSocket(at: path)
        let server = try ControlServer(path: path, socketGroup: nil, handler: FakeControlHandler())
        try server.start()
        defer { server.stop() }
        #expect(try await TestClient(path: path).request(.hello).isOK)
    }

    @Test func aLiveDaemonOnTheSocketIsAnError() async throws {
        let fixture = try ServerFixture()
        #expect(throws: ControlServerError.alreadyRunning(fixture.path)) {
            try ControlServer(path: fixture.path, socketGroup: nil, handler: FakeControlHandler())
        }
        // The first one is untouched.
        #expect(try await fixture.client().request(.hello).isOK)
        let error = ControlServerError.alreadyRunning(fixture.path)
        #expect(error.description.contains("another locationd is running on \(fixture.path)"))
    }

    @Test func aFileThatIsNotASocketIsLeftAlone() async throws {
        let directory = try ScratchDirectory("notsock")
        let path = try directory.write("control.sock", "precious")
        #expect(throws: ControlServerError.notASocket(path)) {
            try ControlServer(path: path, socketGroup: nil, handler: FakeControlHandler())
        }
        #expect(try directory.text("control.sock") == "precious")
    }

    @Test(arguments: [nil, 0o660, 0o600] as [mode_t?])
    func theSocketHasItsModeEveryoneByDefaultInTheSocketGroup(mode: mode_t?) throws {
        // `adm` exists on every Debian system; any existing group other than root's would do.
        let group = try #require(try? SocketGroup.lookup("adm").get())
        let fixture = try ServerFixture(socketGroup: "adm", socketMode: mode ?? ControlServer.socketMode)
        var info = stat()
        #expect(lstat(fixture.path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o7777 == (mode ?? 0o666))
        #expect(info.st_gid == group.gid)
        #expect(fixture.server.group == group)
        #expect(fixture.server.warnings.isEmpty)
    }

    @Test func aMissingGroupIsReportedAndOnlyRootMayChange() async throws {
        let fixture = try ServerFixture(socketGroup: "locationd-no-such-group")
        #expect(fixture.server.group == nil)
        let warning = try #require(fixture.server.warnings.first)
        #expect(warning.contains("socket_group \"locationd-no-such-group\" does not exist"))
        #expect(warning.contains("only root may change state"))
    }

    @Test func theSocketDirectoryIsCreated() async throws {
        let directory = try ScratchDirectory("mkdir")
        let path = directory.file("run/locationd/control.sock")
        let server = try ControlServer(path: path, socketGroup: nil, handler: FakeControlHandler())
        try server.start()
        defer { server.stop() }
        #expect(try await TestClient(path: path).request(.hello).isOK)
    }

    @Test func stopRemovesTheSocketOnlyIfItIsStillOurs() async throws {
        let directory = try ScratchDirectory("stop")
        let path = directory.file("control.sock")
        let first = try ControlServer(path: path, socketGroup: nil, handler: FakeControlHandler())
        try first.start()
        first.stop()
        #expect(!directory.exists("control.sock"))
        first.stop()  // again: nothing happens

        let second = try ControlServer(path: path, socketGroup: nil, handler: FakeControlHandler())
        try second.start()
        // Someone replaced the socket file meanwhile: stop leaves theirs alone.
        unlink(path)
        try directory.write("control.sock", "theirs")
        second.stop()
        #expect(try directory.text("control.sock") == "theirs")
    }

    @Test func aPathTooLongForASocketAddressIsAnError() async throws {
        let path = "/tmp/" + String(repeating: "d", count: 200) + "/control.sock"
        #expect(throws: ControlServerError.pathTooLong(path)) {
            try ControlServer(path: path, socketGroup: nil, handler: FakeControlHandler())
        }
    }

    @Test func connectionsWaitInTheBacklogUntilStart() async throws {
        let directory = try ScratchDirectory("backlog")
        let path = directory.file("control.sock")
        let server = try ControlServer(path: path, socketGroup: nil, handler: FakeControlHandler())
        defer { server.stop() }
        let client = try TestClient(path: path)
        try await client.send(ControlRequest(id: 1, .hello))
        try server.start()
        #expect(try await client.json()?["id"] == 1)
    }
}
