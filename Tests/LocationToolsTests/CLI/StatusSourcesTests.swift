import Testing
import TestSupport
@testable import LocationProtocol
@testable import LocationTools

/// Several sources in `status` (docs/sources.md, "Several sources"): each with its state, outage
/// and counts, for every reader, in the JSON and the text; receivers say which source brought them.
@Suite struct StatusSourcesTests {
    static var report: StatusReport {
        var report = Samples.report
        report.sourceName = "gpsd 127.0.0.1:2947 (default), nmea /dev/ttyUSB1 (gnss)"
        report.sources = [
            SourceStatus(
                name: "default", description: "gpsd 127.0.0.1:2947", state: .fix,
                counts: SourceCounts(attempts: 1, connections: 1, lines: 120, fixes: 40)),
            SourceStatus(
                name: "gnss", description: "nmea /dev/ttyUSB1", state: .connecting,
                outage: SourceOutage(attempts: 7, seconds: 4.1, waits: 8, longestWait: 0.75, lastWait: 0.75)),
        ]
        report.status.receivers = [
            ReceiverStatus(
                device: "/dev/ttyACM0", state: .followed, quality: ReceiverQuality(mode: .threeD, horizontalError: 2.1),
                lastFixAge: 0, fixes: 40, clients: ["logger"], source: "gpsd 127.0.0.1:2947"),
            ReceiverStatus(
                device: "/dev/ttyUSB1", state: .silent, quality: nil, lastFixAge: 30, fixes: 12, clients: [],
                source: "nmea /dev/ttyUSB1"),
        ]
        return report
    }

    @Test func everyReaderGetsEachSourceThroughTheReply() throws {
        for tier in [ReadTier.privileged, .unprivileged] {
            let shown = Disclosure(tier: tier, services: true).status(Self.report)
            guard case .reply(let reply) = try ServerMessage.decode(ControlReply.status(id: 1, shown).line()) else {
                Issue.record("not a reply")
                return
            }
            let read = try reply.statusReport()
            #expect(read.sources == Self.report.sources)
            #expect(read.status.receivers.map(\.source) == ["gpsd 127.0.0.1:2947", "nmea /dev/ttyUSB1"])
        }
    }

    @Test func theTextShowsEachSourceAndWhichBroughtEachReceiver() {
        let text = StatusRenderer.render(Self.report)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("gpsd 127.0.0.1:2947 (default), nmea /dev/ttyUSB1 (gnss): connected"))
        #expect(lines[1] == "  source default, gpsd 127.0.0.1:2947: fix")
        #expect(lines[2].hasPrefix("    read 120 lines (0 unreadable), 40 fixes;"))
        #expect(lines[3].hasPrefix("  source gnss, nmea /dev/ttyUSB1: connecting; "), "\(lines[3])")
        #expect(lines.contains { $0.hasPrefix("receivers:") })
        #expect(lines.contains { $0.contains("DEVICE") && $0.contains("SOURCE") })
        #expect(lines.contains { $0.contains("/dev/ttyUSB1") && $0.contains("nmea /dev/ttyUSB1") && $0.contains("silent") })
    }

    @Test func oneSourceShowsAsBefore() {
        var report = Samples.report
        report.sources = [SourceStatus(name: "default", description: "gpsd 127.0.0.1:2947", state: .fix, counts: report.sourceCounts)]
        var without = report
        without.sources = []
        #expect(StatusRenderer.render(report) == StatusRenderer.render(without))
    }
}
