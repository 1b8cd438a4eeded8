import Testing
@testable import LocationCore

@Suite struct ProgramStatusTests {
    private let program = ConnectedProgram(
        client: "qgis", via: "gpsd_port", pid: 4242, uid: 1000, name: "gpspipe", watching: true, delivered: 12)

    @Test func statusCarriesTheProgramsAndWhatTheirSocketsTurnedAway() throws {
        let engine = EngineStatus(services: true, source: .fix, lastFix: nil, lastFixAge: nil, clients: [])
        let counts = ["qgis": ProgramCounts(refused: 2, cutOff: 1, dropped: 0), "geoclue": ProgramCounts(dropped: 3)]
        let report = StatusReport(status: engine, time: 1_773_480_610, programs: [program], programCounts: counts)
        let decoded = try StatusReport(json: report.json)
        #expect(decoded.programs == [program])
        #expect(decoded.programCounts == counts)
        #expect(report.json["programCounts"]?["qgis"]?["refused"]?.intValue == 2)
        // A report without them says nothing of programs.
        #expect(StatusReport(status: engine).json["programCounts"] == nil)
    }

    @Test func theSummariesSayWhoAndHowMany() {
        #expect(program.summary == "gpspipe (pid 4242, uid 1000) on gpsd_port, watching, 12 fixes")
        #expect(ProgramCounts(refused: 1).summary == "refused 1 (allow_users/allow_groups), cut off for falling behind 0")
        #expect(ProgramCounts(dropped: 4).summary.hasSuffix("fixes dropped with the program queue full 4"))
    }
}
