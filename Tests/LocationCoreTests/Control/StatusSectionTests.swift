import LocationCore
import LocationProtocol
import LocationValues
import Testing
import TestSupport

/// A face's status section: written after the report's own members in the faces' order,
/// narrowed to one client, and shown to a reader only as the section itself says.
@Suite struct StatusSectionTests {
    /// A face's section the core knows nothing of: per client, a count; hidden from anyone unprivileged.
    struct CountsSection: StatusSection {
        var counts: [String: Int]

        var jsonMembers: [(String, JSONValue)] {
            counts.isEmpty ? [] : [("newFace", .object(counts.keys.sorted().map { ($0, .number(Double(counts[$0] ?? 0))) }))]
        }

        func only(client: String) -> CountsSection { CountsSection(counts: counts.filter { $0.key == client }) }

        func seen(through disclosure: Disclosure) -> CountsSection? { disclosure.tier == .privileged ? self : nil }

        static let read: StatusSections.Reader = { value in
            guard let object = value["newFace"]?.objectValue else { return nil }
            return CountsSection(counts: Dictionary(object.compactMap { name, count in count.intValue.map { (name, $0) } }, uniquingKeysWith: { a, _ in a }))
        }
    }

    static let broker = BrokerStatus(client: "logger", broker: "mqtt://127.0.0.1:1883", topic: "t", state: .connected, detail: "connected")

    static func report() -> StatusReport {
        var report = Samples.report
        report.sections = StatusSections([
            MQTTSection(brokers: [broker]), CountsSection(counts: ["logger": 2, "tracker": 5]),
        ])
        return report
    }

    @Test func aNewSectionIsWrittenAfterTheOthersInTheFacesOrder() throws {
        let members = try #require(Self.report().json.objectValue).map(\.0)
        #expect(Array(members.suffix(2)) == ["brokers", "newFace"], "\(members)")
        #expect(Self.report().brokers == [Self.broker])
    }

    @Test func onlyOneClientNarrowsEverySection() throws {
        let one = try #require(Self.report().only(client: "logger"))
        #expect(one.sections[CountsSection.self]?.counts == ["logger": 2])
        #expect(one.brokers == [Self.broker])
    }

    @Test func aReaderSeesOfEachSectionWhatItSays() {
        let unprivileged = Disclosure(tier: .unprivileged, services: true).status(Self.report())
        #expect(unprivileged.sections[CountsSection.self] == nil)
        #expect(unprivileged.brokers == [Self.broker])
        let privileged = Disclosure(tier: .privileged, services: false).status(Self.report())
        #expect(privileged.sections[CountsSection.self]?.counts == ["logger": 2, "tracker": 5])
    }

    @Test func theKnownSectionsReadBackAndAnUnknownOneIsLeftOut() throws {
        let decoded = try StatusReport(json: Self.report().json)
        #expect(decoded.brokers == [Self.broker])
        #expect(decoded.sections[CountsSection.self] == nil)
        #expect(try JSONValue.parse(Array(decoded.json.serialized.utf8))["newFace"] == nil)
    }
}
