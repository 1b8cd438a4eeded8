import Foundation
import Testing
import TestSupport
@testable import LocationProtocol
import LocationTools

@Suite struct ProgramStatusTests {
    private let program = ConnectedProgram(
        client: "qgis", via: "gpsd_port", pid: 4242, uid: 1000, name: "gpspipe", watching: true, delivered: 12)

    @Test func statusCarriesTheProgramsAndWhatTheirSocketsTurnedAway() throws {
        let engine = EngineStatus(services: true, source: .fix, lastFix: nil, lastFixAge: nil, clients: [])
        let counts = ["qgis": ProgramCounts(refused: 2, busy: 4, cutOff: 1, dropped: 0), "geoclue": ProgramCounts(dropped: 3)]
        let report = StatusReport(status: engine, time: 1_773_480_610, programs: [program], programCounts: counts)
        let decoded = try StatusReport(json: report.json)
        #expect(decoded.programs == [program])
        #expect(decoded.programCounts == counts)
        #expect(report.json["programCounts"]?["qgis"]?["refused"]?.intValue == 2)
        #expect(report.json["programCounts"]?["qgis"]?["busy"]?.intValue == 4)
        // A daemon from before `busy` was counted: read as none.
        #expect(try ProgramCounts(json: .object([("refused", .number(1))])) == ProgramCounts(refused: 1))
        // A report without them says nothing of programs.
        #expect(StatusReport(status: engine).json["programCounts"] == nil)
    }

    @Test func theSummariesSayWhoAndHowMany() {
        #expect(program.summary == "gpspipe (pid 4242, uid 1000) on gpsd_port, watching, 12 fixes")
        // Only what is true: the reasons with a count, each with its number.
        #expect(ProgramCounts(refused: 1).summary == "refused 1 (allow_users/allow_groups)")
        #expect(ProgramCounts(busy: 2).summary == "refused 2 busy (connection limit)")
        #expect(ProgramCounts(cutOff: 1).summary == "cut off 1 for falling behind")
        #expect(ProgramCounts(dropped: 1).summary == "1 fix dropped with the program queue full")
        #expect(
            ProgramCounts(refused: 1, busy: 2, cutOff: 3, dropped: 4).summary
                == "refused 1 (allow_users/allow_groups), refused 2 busy (connection limit), cut off 3 for falling behind, "
                + "4 fixes dropped with the program queue full")
        #expect(ProgramCounts().summary == "nothing turned away")
    }

    @Test func theStatusTextHasAProgramsLinePerClientWithCounts() {
        let engine = EngineStatus(
            services: true, source: .fix, lastFix: nil, lastFixAge: nil, clients: [Samples.delivering, Samples.denied])
        var logger = program
        logger.client = "logger"
        let report = StatusReport(
            status: engine, time: 1_773_480_610, programs: [logger],
            programCounts: ["logger": ProgramCounts(refused: 1, busy: 2, cutOff: 3)])
        let text = StatusRenderer.render(report)
        #expect(text.contains("  program: gpspipe (pid 4242, uid 1000) on gpsd_port, watching, 12 fixes\n"))
        #expect(text.contains(
            "  programs: refused 1 (allow_users/allow_groups), refused 2 busy (connection limit), cut off 3 for falling behind\n"))
        #expect(text.components(separatedBy: "programs:").count == 2, "tracker turned nobody away: no line for it")
    }
}
