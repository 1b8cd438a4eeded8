import Testing
import TestSupport
import LocationProtocol
import LocationValues
@testable import LocationTools

/// A face's status text is its section's own (`StatusSectionText`): `StatusRenderer` names no
/// face, and asks every section of the report, in the report's order, for its lines.
@Suite(.timeLimit(.minutes(10))) struct StatusSectionTextTests {
    /// A face `StatusRenderer` knows nothing of: a line of its own, and a line under each client it counts.
    struct PageSection: StatusSection, StatusSectionText {
        var views: [String: Int]
        var jsonMembers: [(String, JSONValue)] { [] }
        func only(client: String) -> PageSection { PageSection(views: views.filter { $0.key == client }) }
        func seen(through disclosure: Disclosure) -> PageSection? { self }
        static let read: StatusSections.Reader = { _ in nil }

        func headLines(_ report: StatusReport) -> [String] { ["Page: serving on :8080"] }
        func clientLines(_ client: String, in report: StatusReport) -> [String] {
            views[client].map { ["  page: \($0) views"] } ?? []
        }
    }

    static let broker = BrokerStatus(client: "logger", broker: "mqtt://127.0.0.1:1883", topic: "t", state: .connected, detail: "connected")

    static func report(_ sections: [any StatusSection]) -> StatusReport {
        let status = EngineStatus(services: true, source: .fix, lastFix: nil, lastFixAge: nil, clients: [Samples.delivering])
        return StatusReport(status: status, time: Samples.t0, sections: StatusSections(sections))
    }

    @Test func aNewSectionRendersItsOwnLinesAfterLocationServicesAndUnderItsClient() {
        let text = StatusRenderer.render(Self.report([PageSection(views: ["logger": 3])]))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let services = lines.firstIndex { $0.hasPrefix("Location Services:") }
        #expect(services.map { lines[$0 + 1] } == "Page: serving on :8080", "\(text)")
        #expect(lines.last { !$0.isEmpty } == "  page: 3 views", "\(text)")
    }

    @Test func eachClientsLinesComeInTheSectionsOrder() {
        let geoclue = GeoClueSection(
            bus: "system", connected: true, clients: ["logger": .init(desktopId: "org.example.Logger", uid: nil, peers: [])])
        let text = StatusRenderer.render(
            Self.report([MQTTSection(brokers: [Self.broker]), geoclue, PageSection(views: ["logger": 1])]))
        let under = text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  ") }
        let broker = under.firstIndex { $0.hasPrefix("  mqtt://127.0.0.1:1883 t: connected") }
        let app = under.firstIndex { $0 == "  GeoClue app org.example.Logger: not started" }
        let page = under.firstIndex { $0 == "  page: 1 views" }
        #expect(broker != nil && app != nil && page != nil, "\(text)")
        if let broker, let app, let page { #expect(broker < app && app < page, "\(text)") }
        #expect(text.contains("GeoClue: serving org.freedesktop.GeoClue2 on the system bus\n"), "\(text)")
    }

    @Test func aSectionWithoutTextAddsNoLine() {
        let plain = StatusRenderer.render(Self.report([]))
        #expect(StatusRenderer.render(Self.report([MQTTSection()])) == plain)
        #expect(StatusRenderer.render(Self.report([ProgramsSection()])) == plain)
    }
}
