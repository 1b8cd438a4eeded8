import Testing
import TestSupport
@testable import LocationProtocol
import LocationTools

/// #8: while gpsd is away, `status` says so with numbers — attempts, for how long, and the waits
/// between them — for every reader (no coordinate in it).
@Suite struct SourceOutageTests {
    static let outage = SourceOutage(attempts: 9, seconds: 5.2, waits: 9, longestWait: 0.75, lastWait: 0.75)
    static let connecting = EngineStatus(services: true, source: .connecting, lastFix: nil, lastFixAge: nil, clients: [])

    @Test func statusJSONCarriesItAndReadsItBack() throws {
        let report = StatusReport(status: Self.connecting, time: Samples.t0, sourceOutage: Self.outage)
        let json = report.json
        #expect(json["outage"]?["attempts"]?.intValue == 9 && json["outage"]?["longestWait"] == .number(0.75))
        #expect(json["outage"]?["seconds"] == .number(5.2) && json["outage"]?["lastWait"] == .number(0.75))
        #expect(try StatusReport(json: json).sourceOutage == Self.outage)
        #expect(StatusReport(status: Self.connecting).json["outage"] == nil, "no outage, no member")
        // Every reader sees it: it is no coordinate.
        let stripped = Disclosure(tier: .unprivileged, services: true).status(report)
        #expect(stripped.sourceOutage == Self.outage)
    }

    @Test func theSourceLineSaysHowLongHowOftenAndTheLongestWait() {
        let report = StatusReport(status: Self.connecting, sourceName: "gpsd 127.0.0.1:2947", sourceOutage: Self.outage)
        let first = StatusRenderer.render(report).split(separator: "\n").first.map(String.init)
        #expect(
            first == "gpsd 127.0.0.1:2947: not connected (retrying); 9 attempts failed in 5 s; waits between them at most 0.75 s")
        #expect(SourceOutage(attempts: 1, seconds: 0.1, waits: 1, longestWait: 0.125, lastWait: 0.125).summary
            == "1 attempt failed in 0 s; waits between them at most 0.125 s")
        // Connected again: the outage is over, whatever a stale report says.
        var connected = report
        connected.status.source = .connected
        #expect(!StatusRenderer.render(connected).contains("attempts failed"))
    }
}
