import LocationCore
import LocationProtocol
import Testing

/// The access report's lines and its summary per client.
struct AccessReportTests {
    static let minute: Int64 = 29_566_080

    @Test func aLineReadsBackAsItWasWrittenAndAGarbledOneIsSkipped() throws {
        let count = AccessCount(
            minute: Self.minute, client: "qgis", sink: .gpsdSocket, accuracy: .reduced,
            peer: AccessPeer(uid: 1000, unit: "qgis.service", name: "qgis"), count: 42)
        #expect(AccessCount(line: Array(count.line.utf8.dropLast())) == count)
        #expect(AccessCount(line: Array(#"{"m":29566080,"c":"qgis","s":"log","a":"fu"#.utf8)) == nil)
        #expect(AccessCount(line: Array(#"{"m":-1,"c":"qgis","s":"log","a":"full","n":1}"#.utf8)) == nil)
    }

    @Test func aOneHertzClientForAWeekStaysWellUnderAMegabyte() {
        let line = AccessCount(minute: Self.minute, client: "logger", sink: .log, accuracy: .full, peer: nil, count: 60).line
        let week = line.utf8.count * 7 * 24 * 60
        #expect(week < 700_000, "\(week) bytes")
    }

    @Test func theSummaryAddsUpByClientSinkAccuracyAndPeer() throws {
        let peer = AccessPeer(uid: 65534)
        let counts = [
            AccessCount(minute: Self.minute, client: "logger", sink: .log, accuracy: .full, peer: nil, count: 60),
            AccessCount(minute: Self.minute + 1, client: "logger", sink: .log, accuracy: .full, peer: nil, count: 30),
            AccessCount(minute: Self.minute + 1, client: "logger", sink: .watch, accuracy: .full, peer: peer, count: 5),
            AccessCount(minute: Self.minute + 2, client: "logger", sink: .watch, accuracy: .full, peer: peer, count: 5),
            AccessCount(minute: Self.minute - 10, client: "rough", sink: .log, accuracy: .reduced, peer: nil, count: 1),
        ]
        let report = AccessReport(counts: counts, since: Self.minute)
        #expect(report.clients.map(\.client) == ["logger"])
        let logger = try #require(report.clients.first)
        #expect(logger.count == 100 && logger.sinks == ["log": 90, "watch": 10] && logger.full == 100 && logger.reduced == 0)
        #expect(logger.first == Double(Self.minute) * 60 && logger.last == Double(Self.minute + 2) * 60)
        #expect(logger.peers.count == 1 && logger.peers[0].count == 10 && logger.peers[0].sink == "watch")
        let json = report.json.serialized
        #expect(json.contains(#""sinks":{"log":90,"watch":10},"accuracy":{"full":100,"reduced":0},"peers":[{"uid":65534,"sink":"watch","count":10}]"#), "\(json)")
        #expect(AccessReport(counts: counts, only: { $0 == "rough" }).clients.map(\.client) == ["rough"])
    }
}
