#if canImport(Glibc)
import Glibc
#endif
import LocationCore
@testable import LocationDaemon
import Testing
import TestSupport

/// A real unprivileged `locationctl` (uid/gid 65534, no supplementary
/// groups, via setpriv) against a real server: what the socket's mode,
/// group and `SO_PEERCRED` let it do.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: getuid() == 0, "needs root to run locationctl as another user"),
    .enabled(if: ExternalTool.isAvailable("setpriv"), "needs setpriv (util-linux)"),
    .enabled(if: Locationctl.isBuilt, "build locationctl first: swift build --build-tests"))
struct UnprivilegedPeerTests {
    static let setpriv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    static func runAsNobody(_ arguments: [String], in directory: ScratchDirectory) async throws
        -> (status: Int32, output: String, errors: String)
    {
        try await Locationctl.run(arguments, in: directory, prefix: setpriv)
    }

    static func openDirectory(_ fixture: ServerFixture) {
        // mkdtemp made it 0700; the socket's own mode is what is under test.
        chmod(fixture.directory.path, 0o755)
    }

    @Test func aNarrowedSocketModeKeepsOthersOut() async throws {
        let fixture = try ServerFixture("nobody-out", socketMode: 0o660)
        Self.openDirectory(fixture)
        let (status, _, errors) = try await Self.runAsNobody(["--socket", fixture.path, "status"], in: fixture.directory)
        #expect(status == 3)
        #expect(errors.contains("permission denied"))
        #expect(errors.contains("socket group"))
        #expect(fixture.handler.requests.isEmpty)
    }

    @Test func aPeerOutsideTheSocketGroupMayReadButNotChange() async throws {
        let fixture = try ServerFixture("nobody-read")
        Self.openDirectory(fixture)
        // The default mode, 0666, lets everyone connect: the role decides.
        let (readStatus, output, _) = try await Self.runAsNobody(["--socket", fixture.path, "status"], in: fixture.directory)
        #expect(readStatus == 0)
        #expect(output.contains("logger: ask"))

        let (status, _, errors) = try await Self.runAsNobody(
            ["--socket", fixture.path, "authorize", "logger", "always"], in: fixture.directory)
        #expect(status == 1)
        #expect(errors.contains("authorize is the user's side, which a program cannot take for itself: only root may send it"))
        #expect(fixture.handler.authorization("logger").stored == .ask)
        #expect(!fixture.handler.requests.contains { $0.access == .change })
        let peer = try #require(fixture.handler.peers.first)
        #expect(peer.uid == 65534 && peer.gid == 65534 && !peer.mayChange)
    }

    @Test func aMemberOfTheSocketGroupMayChange() async throws {
        // nogroup (65534) is nobody's group here: setpriv's --regid makes the peer a member.
        let group = try #require(try? SocketGroup.lookup("nogroup").get(), "Debian has a nogroup group")
        #expect(group.gid == 65534)
        let fixture = try ServerFixture("nobody-member", socketGroup: "nogroup")
        Self.openDirectory(fixture)
        let (status, output, errors) = try await Self.runAsNobody(
            ["--socket", fixture.path, "authorize", "logger", "always"], in: fixture.directory)
        #expect(status == 0, "\(errors)")
        #expect(output == "logger is now always\n")
        #expect(fixture.handler.authorization("logger").stored == .always)
        #expect(fixture.handler.peers.first?.mayChange == true)
    }
}
