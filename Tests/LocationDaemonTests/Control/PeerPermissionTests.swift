#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationSystem
@testable import LocationDaemon
import Testing
import TestSupport

/// Who may change state: `SO_PEERCRED`, the socket group, and the refusal
/// that never reaches the handler.
@Suite(.timeLimit(.minutes(10))) struct PeerPermissionTests {
    @Test func credentialsComeFromTheKernel() async throws {
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let peer = try ControlPeer.of(socket: fds[0], group: nil).get()
        #expect(peer.pid == getpid())
        #expect(peer.uid == getuid())
        #expect(peer.gid == getgid())
        #expect(peer.mayChange == (getuid() == 0))
        #expect(PeerCredentials.supplementaryGroups(fds[0]) != nil, "this kernel reports SO_PEERGROUPS")
    }

    @Test func credentialsOfSomethingThatIsNotASocketAreAnError() async throws {
        let directory = try ScratchDirectory("peer")
        let fd = open(try directory.write("file", "x"), O_RDONLY)
        defer { close(fd) }
        #expect(throws: SystemError.self) { try ControlPeer.of(socket: fd, group: nil).get() }
    }

    static let group = SocketGroup(name: "locationd", gid: 4242, members: ["nobody"])

    @Test(arguments: [
        (uid: UInt32(0), gid: UInt32(0), groups: [UInt32]?.some([]), admitted: true),  // root
        (1000, 4242, [], true),  // primary group
        (1000, 1000, [27, 4242], true),  // supplementary group
        (1000, 1000, [27, 100], false),  // not a member
        (1000, 1000, nil, false),  // kernel cannot say; no such user in the member list
    ])
    func theSocketGroupAdmitsRootAndItsMembers(uid: UInt32, gid: UInt32, groups: [UInt32]?, admitted: Bool) {
        #expect(Self.group.admits(uid: uid, gid: gid, groups: groups) == admitted)
    }

    @Test func withoutKernelGroupsTheGroupsMemberListDecides() async throws {
        // uid 65534 is `nobody` on Debian; the member list names it.
        let nobody = try #require(SocketGroup.userName(uid: 65534))
        let group = SocketGroup(name: "locationd", gid: 4242, members: [nobody])
        #expect(group.admits(uid: 65534, gid: 65534, groups: nil))
        #expect(!SocketGroup(name: "locationd", gid: 4242).admits(uid: 65534, gid: 65534, groups: nil))
    }

    @Test func lookingUpAGroupFindsItsID() async throws {
        let root = try SocketGroup.lookup("root").get()
        #expect(root.gid == 0)
        #expect(throws: SocketGroup.LookupError.noSuchGroup("locationd-no-such-group")) {
            try SocketGroup.lookup("locationd-no-such-group").get()
        }
    }

    @Test(arguments: [
        ControlRequest.Operation.command(.authorize(client: "logger", status: .never)),
        .command(.services(on: false)), .command(.answer(client: "logger", answer: .deny)),
        .command(.locate(client: "logger", timeout: nil)), .command(.session(client: "logger", inUse: false)),
    ])
    func aPeerThatMayNotChangeIsRefusedAndTheHandlerNeverSeesIt(operation: ControlRequest.Operation) async throws {
        let fixture = try ServerFixture(adjustPeer: { peer in
            var peer = peer
            peer.mayChange = false
            return peer
        })
        let client = try fixture.client()
        let refused = try await client.request(operation, id: 3)
        #expect(refused.error?.code == "not-authorized")
        #expect(refused.id == 3)
        #expect(refused.error?.message.contains("socket_group") == true)
        // Reading is still allowed, on the same connection.
        #expect(try await client.request(.status(client: nil), id: 4).isOK)
        try await client.send(ControlRequest(id: 5, .watch(client: "logger")))
        #expect(try await client.json()?["watching"] == "logger")
        #expect(fixture.handler.requests.allSatisfy { $0.access == .read })
        #expect(fixture.handler.authorization("logger").stored == .ask)
        #expect(await fixture.eventually { fixture.server.statistics.refusedRequests == 1 })
    }

    @Test func theHandlerIsToldWhoAsked() async throws {
        let fixture = try ServerFixture()
        let client = try fixture.client()
        #expect(try await client.request(.command(.start(client: "logger"))).isOK)
        let peer = try #require(fixture.handler.peers.first)
        #expect(peer.pid == getpid() && peer.uid == getuid())
        #expect(peer.mayChange == (getuid() == 0))
    }
}
