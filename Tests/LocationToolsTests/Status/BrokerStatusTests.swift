import Testing
@testable import LocationProtocol
@testable import LocationValues
import LocationTools

@Suite struct BrokerStatusTests {
    private let status = BrokerStatus(
        client: "fleet", broker: "mqtt://127.0.0.1:1883", topic: "owntracks/board/one", state: .refused,
        detail: "the broker refused the connection: not authorised", backlog: 12, published: 3, lastPublish: 1_773_480_600,
        skipped: 1, lostFiles: 2)

    @Test func roundTripsThroughStatusAndWatch() throws {
        #expect(try BrokerStatus(json: status.json) == status)
        let event = ControlEvent(broker: status, time: 1_773_480_601)
        let back = try ControlEvent(json: try JSONValue.parse(event.line()))
        #expect(back == event)
        #expect(event.client == "fleet")
        #expect(EventRenderer.render(event).contains("fleet broker mqtt://127.0.0.1:1883 → refused: the broker refused"))
    }

    @Test func statusShowsTheBrokerUnderItsClient() throws {
        let engine = EngineStatus(services: true, source: .fix, lastFix: nil, lastFixAge: nil, clients: [])
        let report = StatusReport(status: engine, time: 1_773_480_610, sourceName: "gpsd", brokers: [status])
        let decoded = try StatusReport(json: report.json)
        #expect(decoded.brokers == [status])
        let lines = StatusRenderer.brokerLines(status, now: 1_773_480_610).joined(separator: "\n")
        #expect(lines.contains("NOT connected (refused: the broker refused the connection: not authorised; retrying)"))
        #expect(lines.contains("backlog 12 records"))
        #expect(lines.contains("3 published"))
        #expect(lines.contains("1 log line is no record"))
        #expect(lines.contains("2 rotated logs were deleted"))
    }
}
