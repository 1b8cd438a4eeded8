import Testing
import TestSupport
@testable import LocationProtocol
@testable import LocationValues
import LocationTools

/// #8: `status` says what the source has read, with numbers, for every reader tier.
@Suite struct SourceCountsTests {
    static let counts = SourceCounts(
        attempts: 3, connections: 2, lines: 12034, unreadable: 1, fixes: 3600, timeless: 4, late: 2)

    @Test func roundTripsThroughStatus() throws {
        #expect(try SourceCounts(json: Self.counts.json) == Self.counts)
        let report = StatusReport(status: Samples.status, time: Samples.t0, sourceCounts: Self.counts)
        let json = try JSONValue.parse(report.json.serialized)
        #expect(json["sourceCounts"]?["unreadable"]?.intValue == 1)
        #expect(try StatusReport(json: json).sourceCounts == Self.counts)
        #expect(try StatusReport(json: StatusReport(status: Samples.status).json).sourceCounts == nil)
        #expect(try SourceCounts(json: .object([("fixes", .number(7))])) == SourceCounts(fixes: 7), "missing counts are 0")
        #expect(throws: ControlDecodeError.self) { try SourceCounts(json: .object([("fixes", .string("many"))])) }
    }

    @Test func everyReaderSeesThemAndNoCoordinate() throws {
        let report = StatusReport(status: Samples.status, time: Samples.t0, sourceCounts: Self.counts)
        for services in [true, false] {
            #expect(Disclosure(tier: .unprivileged, services: services).status(report).sourceCounts == Self.counts)
        }
        let keys = Set(Self.counts.json.objectValue?.map(\.0) ?? [])
        #expect(keys == ["attempts", "connections", "lines", "unreadable", "fixes", "timeless", "late"])
    }

    @Test func statusSaysThemUnderTheSourceLine() {
        let text = StatusRenderer.render(StatusReport(status: Samples.status, sourceName: "gpsd 127.0.0.1:2947", sourceCounts: Self.counts))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 1 && lines[0].hasPrefix("gpsd 127.0.0.1:2947: "))
        #expect(lines[1] == "  read 12034 lines (1 unreadable), 3600 fixes; dropped 4 without a time, 2 late; connected 2 times in 3 attempts")
        let one = SourceCounts(attempts: 1, connections: 1, lines: 1, fixes: 1)
        #expect(one.summary == "read 1 line (0 unreadable), 1 fix; dropped 0 without a time, 0 late; connected 1 time in 1 attempt")
        #expect(!StatusRenderer.render(StatusReport(status: Samples.status)).contains("unreadable"))
    }
}
