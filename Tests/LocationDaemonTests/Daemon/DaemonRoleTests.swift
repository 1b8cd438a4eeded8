import LocationCore
import LocationProtocol
@testable import LocationDaemon
import Testing
import TestSupport

/// The role check lives in the engine owner's handler (#47): whatever face hands it a peer, a
/// command the peer's role may not send is refused there, and changes nothing.
@Suite(.timeLimit(.minutes(10))) struct DaemonRoleTests {
    static let clients = DaemonFixtures.askingLogger + """


        [client.survey]
        authorization = ask
        usage = Surveys the site
        """

    /// An app of logger, and a peer who is nobody's app.
    static let peers = [
        ControlPeer(pid: 4242, uid: 1000, gid: 1000, mayChange: false, apps: ["logger"]),
        ControlPeer(pid: 4343, uid: 1001, gid: 1001, mayChange: false),
    ]

    static let operatorCommands: [Command] = [
        .authorize(client: "logger", status: .always), .answer(client: "logger", answer: .allowWhileUsing),
        .accuracy(client: "logger", full: false), .services(on: false), .share(client: "logger"), .reset(client: "logger"),
        .start(client: "survey"), .request(client: "survey", kind: .whileUsing),
    ]

    @Test(arguments: peers, operatorCommands)
    func aNonOperatorPeerHandedStraightToTheHandlerIsRefused(peer: ControlPeer, command: Command) throws {
        let dir = try ScratchDirectory("role-refused")
        let core = try DaemonCore(config: try daemonConfig(in: dir, clients: Self.clients), seed: 1, clock: ManualClock().clock)
        let before = core.statusReport().status
        let reply = core.handle(request(command), from: peer)
        #expect(reply.error?.code == ProtocolError.Code.notAuthorized.rawValue, "\(reply.line())")
        #expect(core.statusReport().status.clients == before.clients && core.statusReport().status.services == before.services)
        core.shutdown()
        let audit = dir.exists("log/audit.jsonl") ? try dir.text("log/audit.jsonl") : ""
        #expect(audit.isEmpty, "nothing audited: \(audit)")
    }

    @Test(arguments: operatorCommands)
    func theOperatorIsNot(command: Command) throws {
        let dir = try ScratchDirectory("role-operator")
        let core = try DaemonCore(config: try daemonConfig(in: dir, clients: Self.clients), seed: 1, clock: ManualClock().clock)
        let reply = core.handle(request(command), from: rootPeer)
        #expect(reply.error?.code != ProtocolError.Code.notAuthorized.rawValue, "\(reply.line())")
        core.shutdown()
    }

    @Test func anAppsOwnSideIsItsOwn() throws {
        let dir = try ScratchDirectory("role-app")
        let core = try DaemonCore(config: try daemonConfig(in: dir, clients: Self.clients), seed: 1, clock: ManualClock().clock)
        let reply = core.handle(request(.request(client: "logger", kind: .whileUsing)), from: Self.peers[0])
        #expect(reply.error == nil, "\(reply.line())")
        core.shutdown()
    }
}
