import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

/// `audit.jsonl`: every accepted change through the socket, with the state it changed.
@Suite(.timeLimit(.minutes(10))) struct DaemonAuditTests {
    func auditLines(_ dir: ScratchDirectory) throws -> [JSONValue] {
        try dir.text("log/audit.jsonl").split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    @Test func anAcceptedChangeIsAuditedWithThePeerAndTheStateBeforeAndAfter() async throws {
        let dir = try ScratchDirectory("audit")
        let core = try DaemonCore(
            config: try daemonConfig(in: dir, clients: DaemonFixtures.askingLogger), seed: 1, clock: ManualClock().clock)
        let peer = ControlPeer(pid: 4242, uid: 1000, gid: 1000, mayChange: true)
        _ = core.handle(request(.authorize(client: "logger", status: .never)), from: peer)
        _ = core.handle(request(.services(on: false)), from: peer)
        core.shutdown()
        let lines = try auditLines(dir)
        #expect(lines.count == 2)
        let first = try #require(lines.first)
        #expect(first["uid"] == 1000 && first["pid"] == 4242)
        #expect(first["cmd"] == "authorize" && first["client"] == "logger")
        #expect(first["args"]?["status"] == "never")
        #expect(first["before"]?["status"] == "ask" && first["after"]?["status"] == "never")
        #expect(first["time"]?.stringValue == UTCTime.format(1000 + ManualClock.wallOffset))
        #expect(lines[1]["before"] == ["services": true] && lines[1]["after"] == ["services": false])
    }

    @Test func refusedAndUnchangedCommandsAndReadsAreNotAudited() async throws {
        let dir = try ScratchDirectory("audit")
        let core = try DaemonCore(
            config: try daemonConfig(in: dir, clients: DaemonFixtures.askingLogger), seed: 1, clock: ManualClock().clock)
        _ = core.handle(request(.authorize(client: "nobody", status: .never)), from: rootPeer)
        _ = core.handle(request(.authorize(client: "logger", status: .ask)), from: rootPeer)
        _ = core.handle(request(.answer(client: "logger", answer: .deny)), from: rootPeer)
        _ = core.handle(ControlRequest(.status(client: nil)), from: rootPeer)
        core.shutdown()
        #expect(try dir.text("log/audit.jsonl").isEmpty)
    }
}
