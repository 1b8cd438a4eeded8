#if canImport(Glibc)
import Glibc
#endif
import LocationClient
import LocationCore
import LocationProtocol
@testable import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// Nobody can lock the control socket (#9): a per-user limit, slots kept for
/// root and `socket_group`, an idle timeout that blank or partial lines do
/// not reset, a bound on sending one line, and `busy` told before the close.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ControlServerAdmissionTests {
    /// Peers made unprivileged while `attacking` is set: uid 65534, or a uid of their own with `manyUsers`.
    final class Attack: Sendable {
        let attacking = Mutex(true)
        let nextUID = Mutex<UInt32>(10_000)
        let manyUsers: Bool

        init(manyUsers: Bool) { self.manyUsers = manyUsers }

        var adjust: @Sendable (ControlPeer) -> ControlPeer {
            { [self] peer in
                guard attacking.withLock({ $0 }) else { return peer }
                var peer = peer
                peer.mayChange = false
                peer.uid = manyUsers ? nextUID.withLock { uid in defer { uid += 1 }; return uid } : 65534
                return peer
            }
        }
    }

    /// Connects `count` peers and returns them with the `busy` messages the refused ones got.
    static func connect(_ count: Int, to fixture: ServerFixture) async throws -> (served: [TestClient], busy: [String]) {
        var served: [TestClient] = []
        var busy: [String] = []
        for _ in 0..<count {
            let client = try fixture.client()
            // A refused connection may be closed before the request goes out: its busy line is there to read anyway.
            try? await client.send(ControlRequest(.hello))
            let reply = try #require(try await client.json())
            if reply["ok"] == true {
                served.append(client)
            } else {
                #expect(reply["error"]?["code"] == "busy")
                busy.append(reply["error"]?["message"]?.stringValue ?? "")
            }
        }
        return (served, busy)
    }

    /// Sends `pieces` one at a time, `every` apart, until the server closes the
    /// connection (true) or every piece went out with it still open (false).
    static func sendUntilClosed(_ client: TestClient, _ pieces: [[UInt8]], every interval: Duration) async throws -> Bool {
        for piece in pieces {
            do {
                _ = try client.connection.sendSome(piece[...])
            } catch {
                return true
            }
            if case .end = try client.connection.pollLine() { return true }
            // The pace of the pieces is what is tested (each comes before the idle or line
            // timeout would end the connection), not a wait for anything.
            try await Task.sleep(for: interval)
        }
        return false
    }

    @Test func oneUserGetsAtMostItsShareAndRootIsStillServed() async throws {
        let attack = Attack(manyUsers: false)
        let fixture = try ServerFixture(
            limits: ControlServer.Limits(maximumConnections: 32, perUser: 8, reservedForPrivileged: 4), adjustPeer: attack.adjust)
        let (served, busy) = try await Self.connect(20, to: fixture)
        #expect(served.count == 8)
        #expect(busy.count == 12)
        #expect(busy.allSatisfy { $0.contains("uid 65534 already has 8 control connections open, as many as one user may have") })
        attack.attacking.withLock { $0 = false }
        #expect(try await fixture.client().request(.status(client: nil)).isOK)
    }

    @Test func manyUsersCannotTakeTheSlotsKeptForRootAndTheSocketGroup() async throws {
        let attack = Attack(manyUsers: true)
        let fixture = try ServerFixture(
            limits: ControlServer.Limits(maximumConnections: 10, perUser: 8, reservedForPrivileged: 3), adjustPeer: attack.adjust)
        let (served, busy) = try await Self.connect(12, to: fixture)
        #expect(served.count == 7)
        #expect(busy.count == 5)
        #expect(busy.allSatisfy { $0.contains("as many as it accepts from users outside root and the socket group (the other 3 of 10") })
        attack.attacking.withLock { $0 = false }
        let admins = try await Self.connect(4, to: fixture)
        #expect(admins.served.count == 3, "the kept slots, then the limit")
        #expect(admins.busy.first?.contains("already serves 10 control connections") == true)
        _ = consume served
    }

    @Test func blankLinesDoNotKeepAConnectionOpen() async throws {
        let fixture = try ServerFixture(limits: ControlServer.Limits(idleTimeout: 0.5))
        // A blank line every 0.1 s for up to 30 s: on its own it would never be idle for 0.5 s.
        let blanks = Array(repeating: Array(" \r\n".utf8), count: 300)
        #expect(try await Self.sendUntilClosed(try fixture.client(), blanks, every: .milliseconds(100)))
        #expect(await fixture.eventually { fixture.server.statistics.idleClosed == 1 })
    }

    @Test func aLineSentOneByteAtATimeMustEndWithinTheLineTimeout() async throws {
        let fixture = try ServerFixture(limits: ControlServer.Limits(lineTimeout: 0.5))
        let trickle = Array(#"{"cmd":"status","client":"logger"}"#.utf8) + Array(repeating: UInt8(ascii: " "), count: 600)
        let closed = try await Self.sendUntilClosed(try fixture.client(), trickle.map { [$0] }, every: .milliseconds(50))
        #expect(closed, "a peer sending part of a line for 30 s is cut off")
        #expect(await fixture.eventually { fixture.server.statistics.slowLineClosed == 1 })
        #expect(fixture.handler.requests.isEmpty)
        // A whole line is answered as always.
        #expect(try await fixture.client().request(.hello).isOK)
    }

    @Test func aRefusedClientReadsBusyEvenWhenTheServerClosedBeforeItSent() async throws {
        let fixture = try ServerFixture(limits: ControlServer.Limits(maximumConnections: 1))
        let held = try fixture.client()
        #expect(try await held.request(.hello).isOK)
        let refused = try ControlClient(path: fixture.path, timeout: 5)
        #expect(await fixture.eventually { fixture.server.statistics.refusedBusy == 1 })
        // The server has sent busy and closed (the socket reports the hang-up): sending now
        // fails, the reply is still there to read.
        #expect(await fixture.eventually { SocketState.peerClosed(refused.fileDescriptor) })
        let (_, reply) = try refused.request(.status(client: nil), timeout: 5)
        #expect(reply.error?.code == "busy")
        #expect(reply.error?.message.contains("already serves 1 control connections") == true)
    }

    @Test(.enabled(if: Locationctl.isBuilt, "build locationctl first: swift build --build-tests"))
    func locationctlSaysBusyWithTheLimitAndExitsOne() async throws {
        let fixture = try ServerFixture(limits: ControlServer.Limits(maximumConnections: 1))
        let held = try fixture.client()
        #expect(try await held.request(.hello).isOK)
        for _ in 0..<5 {
            let (status, _, errors) = try await Locationctl.run(["--socket", fixture.path, "status"], in: fixture.directory)
            #expect(status == 1, "\(errors)")
            #expect(errors.contains("already serves 1 control connections, as many as it accepts"), "\(errors)")
            #expect(!errors.contains("is it stopping"))
        }
    }
}
