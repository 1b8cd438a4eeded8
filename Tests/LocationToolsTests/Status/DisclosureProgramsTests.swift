import Testing
import TestSupport
@testable import LocationProtocol
import LocationTools

/// What `Disclosure` lets through of the program sockets and the MQTT
/// brokers: none of it is a coordinate, so every reader sees it, at every
/// tier and with Location Services off; only who runs a program (pid, uid,
/// process name) is kept to root and the socket group.
@Suite struct DisclosureProgramsTests {
    static let program = ConnectedProgram(
        client: "logger", via: "gpsd_socket", pid: 4242, uid: 1000, name: "gpspipe", watching: true, delivered: 12)
    static let broker = BrokerStatus(
        client: "logger", broker: "mqtt://127.0.0.1:1883", topic: "owntracks/board/one", state: .connected,
        detail: "connected", backlog: 2, published: 40)
    static let counts = ["logger": ProgramCounts(refused: 1, busy: 2, cutOff: 3, dropped: 4)]

    static func report(services: Bool) -> StatusReport {
        let engine = EngineStatus(
            services: services, source: .fix, lastFix: Samples.lastFix, lastFixAge: 2, clients: [Samples.delivering])
        return StatusReport(
            status: engine, time: Samples.t0, sourceName: "gpsd 127.0.0.1:2947", brokers: [broker], programs: [program],
            programCounts: counts)
    }

    @Test(arguments: [true, false])
    func aPrivilegedReaderSeesTheProgramsWholeWithServicesOnOrOff(services: Bool) {
        let shown = Disclosure(tier: .privileged, services: services).status(Self.report(services: services))
        #expect(shown.programs == [Self.program])
        #expect(shown.programCounts == Self.counts)
        #expect(shown.brokers == [Self.broker])
        // The position still only with services on.
        #expect((shown.status.lastFix?.latitude.isFinite == true) == services)
    }

    @Test(arguments: [true, false])
    func anyoneElseSeesTheCountsBrokersAndProgramsButNotWhoRunsThem(services: Bool) throws {
        let shown = Disclosure(tier: .unprivileged, services: services).status(Self.report(services: services))
        let program = try #require(shown.programs.first)
        #expect(shown.programs.count == 1)
        #expect(program.pid == nil && program.uid == nil && program.name == nil)
        #expect(program.client == "logger" && program.via == "gpsd_socket" && program.watching && program.delivered == 12)
        #expect(shown.programCounts == Self.counts)
        #expect(shown.brokers == [Self.broker])
        #expect(shown.status.lastFix?.latitude.isFinite != true)
        let json = shown.json.serialized
        #expect(!json.contains("4242") && !json.contains("gpspipe") && !json.contains("\"uid\""))
        #expect(!json.contains("52.37") && !json.contains("4.895"))
        let text = StatusRenderer.render(shown)
        #expect(text.contains("  program: a program on gpsd_socket, watching, 12 fixes\n"))
        #expect(text.contains("  programs: refused 1 (allow_users/allow_groups), refused 2 busy (connection limit)"))
    }
}
