import LocationCore
import LocationProtocol
import LocationValues
@testable import LocationDaemon
import Testing
import TestSupport

/// `AppSide`: what a program or a GeoClue bus peer sends for its client goes as
/// that client's app, never as the operator.
@Suite(.timeLimit(.minutes(10))) struct AppSideTests {
    /// A bus peer or program the daemon would vouch for: uid 1000, pid 4242, in a unit.
    let identity = ControlPeer(pid: 4242, uid: 1000, gid: 1000, mayChange: false, unit: "app-gnome-maps-4242.scope")

    @Test func theAppSideReachesTheHandlerFromTheClientsAppNotFromTheOperator() async throws {
        let handler = FakeControlHandler(clients: ["logger", "survey"])
        // Even an identity the control socket would take as the operator acts the app alone.
        var operatorIdentity = identity
        operatorIdentity.mayChange = true
        operatorIdentity.apps = ["survey"]
        let app = AppSide(of: "logger", for: operatorIdentity, journal: Diagnostics.programs)
        for command: Command in [
            .session(client: "logger", inUse: true), .start(client: "logger"), .request(client: "logger", kind: .whileUsing),
            .stop(client: "logger"), .session(client: "logger", inUse: false),
        ] {
            let reply = await app.send(command, to: handler)
            #expect(reply.error == nil, "\(command.name): \(reply.line())")
        }
        #expect(handler.requests.count == 5)
        for peer in handler.peers {
            #expect(!peer.mayChange && peer.apps == ["logger"], "\(peer)")
            #expect(peer.pid == 4242 && peer.uid == 1000 && peer.gid == 1000 && peer.unit == "app-gnome-maps-4242.scope")
            #expect(peer.role == ControlRole(isOperator: false, apps: ["logger"]))
        }
    }

    /// Against the daemon core: the app's `request` opens the prompt, the audit log names the app's
    /// uid and pid, and an `authorize` it tries changes nothing and is not audited.
    @Test func theAppsRequestOpensThePromptAndIsAuditedAsTheAppsWhileAGrantIsRefused() async throws {
        let dir = try ScratchDirectory("app-side")
        let core = try DaemonCore(
            config: try daemonConfig(in: dir, clients: DaemonFixtures.askingLogger), seed: 1, clock: ManualClock().clock)
        let app = AppSide(of: "logger", for: identity, journal: Diagnostics.programs)
        #expect(app.send(.request(client: "logger", kind: .whileUsing), synchronouslyTo: core).error == nil)
        let asked = try #require(core.statusReport().status.clients.first { $0.authorization.client == "logger" })
        #expect(asked.prompt != nil, "the prompt is open: \(asked)")
        let refused = app.send(.authorize(client: "logger", status: .always), synchronouslyTo: core)
        #expect(refused.error?.code == ProtocolError.Code.notAuthorized.rawValue, "\(refused.line())")
        let after = try #require(core.statusReport().status.clients.first { $0.authorization.client == "logger" })
        #expect(after.authorization.status == .ask && after.prompt != nil, "\(after)")
        core.shutdown()
        let lines = try dir.text("log/audit.jsonl").split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(lines.map { $0["cmd"] } == ["request"], "\(lines)")
        #expect(lines.first?["uid"] == 1000 && lines.first?["pid"] == 4242, "\(lines)")
    }
}
