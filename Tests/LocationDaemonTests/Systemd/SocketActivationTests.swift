#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem
@testable import LocationDaemon
import Testing
import TestSupport

/// sd_listen_fds(3) as the daemon reads it, and the control server on a
/// socket it did not make.
@Suite(.timeLimit(.minutes(10))) struct SocketActivationTests {
    @Test func variablesForThisProcessPassDescriptorsFromThree() throws {
        let me = getpid()
        #expect(try SocketActivation(environment: [:], processID: me).descriptors.isEmpty)
        #expect(try SocketActivation(environment: ["LISTEN_PID": "\(me)", "LISTEN_FDS": "1"], processID: me).descriptors == [3])
        #expect(try SocketActivation(environment: ["LISTEN_PID": "\(me)", "LISTEN_FDS": "2"], processID: me).descriptors == [3, 4])
        // Inherited from a parent they were meant for: nothing is ours.
        #expect(try SocketActivation(environment: ["LISTEN_PID": "\(me + 1)", "LISTEN_FDS": "1"], processID: me).descriptors.isEmpty)
        #expect(throws: SocketActivationError.badVariable("LISTEN_FDS", "one")) {
            try SocketActivation(environment: ["LISTEN_PID": "\(me)", "LISTEN_FDS": "one"], processID: me)
        }
        #expect(throws: SocketActivationError.badVariable("LISTEN_PID", "x")) {
            try SocketActivation(environment: ["LISTEN_PID": "x", "LISTEN_FDS": "1"], processID: me)
        }
        #expect(throws: SocketActivationError.tooMany(2)) {
            try SocketActivation(environment: ["LISTEN_PID": "\(me)", "LISTEN_FDS": "2"], processID: me).controlSocket()
        }
    }

    /// A listening Unix stream socket at `path`, blocking, as systemd passes one.
    static func listeningSocket(at path: String, listen listening: Bool = true) throws -> Int32 {
        let fd = try UnixSocketAddress.makeSocket(nonBlocking: false)
        let address = try #require(UnixSocketAddress(path: path))
        #expect(address.withSockaddr { bind(fd, $0, $1) } == 0)
        if listening { #expect(listen(fd, 16) == 0) }
        return fd
    }

    @Test func aPassedListeningSocketIsTakenWithItsPathAndMadeNonBlocking() throws {
        let directory = try ScratchDirectory("passed")
        let path = directory.file("control.sock")
        let fd = try Self.listeningSocket(at: path)
        defer { close(fd) }
        let passed = try PassedSocket(checking: fd)
        #expect(passed.path == path)
        #expect(passed.descriptor == fd)
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func anythingButAListeningUnixStreamSocketIsRefused() throws {
        let directory = try ScratchDirectory("passed-bad")
        let bound = try Self.listeningSocket(at: directory.file("quiet.sock"), listen: false)
        defer { close(bound) }
        #expect(throws: SocketActivationError.notAUnixListener(bound)) { try PassedSocket(checking: bound) }
        let file = open(directory.file("plain"), O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        defer { close(file) }
        #expect {
            try PassedSocket(checking: file)
        } throws: { error in
            guard case .notASocket(file, _) = error as? SocketActivationError else { return false }
            return true
        }
    }

    @Test func theServerServesAPassedSocketAndLeavesItsFileToSystemd() async throws {
        let directory = try ScratchDirectory("passed-serve")
        let path = directory.file("control.sock")
        let fd = try Self.listeningSocket(at: path)
        // A connection made before the daemon serves waits in the backlog, as under systemd.
        let early = try TestClient(path: path)
        let server = try ControlServer(passed: try PassedSocket(checking: fd), socketGroup: nil, handler: FakeControlHandler())
        #expect(server.path == path)
        try server.start()
        #expect(try await early.request(.hello).isOK)
        #expect(try await TestClient(path: path).request(.hello).isOK)
        server.stop()
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK, "the socket file is systemd's to remove")
        #expect(fcntl(fd, F_GETFD) == -1, "the server closed its descriptor")
    }
}
