import Testing
import TestSupport
@testable import LocationProtocol
@testable import LocationValues
import LocationTools

/// #8: a log that starts to fail, or works again, is a `log` event on `watch` with the
/// counts of `logWrite` and the daemon's sentence — and never a coordinate.
@Suite struct LogWriteChangeTests {
    static let change = LogWriteChange(
        client: "logger", status: LogWriteStatusTests.failing,
        message: "cannot write /var/log/locationd/logger.jsonl (No space left on device): no partial line is left in it")

    @Test func theEventCarriesTheLogsStatusAndReadsBack() throws {
        let event = ControlEvent(log: Self.change, time: Samples.t0)
        let json = try JSONValue.parse(event.line())
        #expect(json["event"] == .string("log") && json["client"] == .string("logger"))
        #expect(json["held"]?.intValue == 120 && json["written"]?.intValue == 400 && json["failing"] == .bool(true))
        #expect(json["error"]?.stringValue == "write /var/log/locationd/logger.jsonl: No space left on device")
        let keys = Set(json.objectValue?.map(\.0) ?? [])
        #expect(keys.isDisjoint(with: ["lat", "lon", "alt", "hAcc"]), "never a coordinate: \(keys)")
        #expect(try ControlEvent(json: json) == event)
        #expect(event.client == "logger" && event.matches(client: "logger") && !event.matches(client: "other"))
        #expect(Disclosure(tier: .unprivileged, services: false).allows(event), "every tier, as status's logWrite")
    }

    @Test func watchSaysWhichWayItWent() {
        let failing = EventRenderer.render(ControlEvent(log: Self.change, time: Samples.t0))
        #expect(failing.hasSuffix("logger log failing: cannot write /var/log/locationd/logger.jsonl (No space left on device): no partial line is left in it"), "\(failing)")
        var back = Self.change
        back.status = LogWriteStatus(path: back.status.path, written: 520)
        back.message = "writing /var/log/locationd/logger.jsonl works again: 120 held lines written, no line lost"
        #expect(EventRenderer.render(ControlEvent(log: back, time: nil)) == "logger log works again: " + back.message)
    }

    @Test func aNewWatcherIsToldOfAFailingLogAfterThePrompts() {
        let events = ControlEvent.snapshot(
            source: .fix, authorizations: [], prompts: [], failingLogs: [Self.change], time: Samples.t0, client: "other")
        #expect(events.map(\.name) == ["source"], "another client's log is not this watcher's")
        let mine = ControlEvent.snapshot(
            source: .fix, authorizations: [], prompts: [], failingLogs: [Self.change], time: Samples.t0, client: nil)
        #expect(mine.map(\.name) == ["source", "log"])
    }
}
