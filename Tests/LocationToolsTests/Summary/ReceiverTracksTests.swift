import Testing
@testable import LocationProtocol
@testable import LocationValues
@testable import LocationTools

/// `summary` and `plot` with two receivers in one log (#29 item 4): each receiver its own
/// track, its own distance and gaps, never a line or a sum across the two.
@Suite struct ReceiverTracksTests {
    static let t0 = TrackSummaryTests.t0

    /// Two receivers walking the same 9 m north, one record a second each, interleaved; B 30 m east
    /// of A (so a zigzag between them would add about 60 m a second). B stops for 15 s midway.
    static func twoReceivers() -> [LogRecord] {
        var records: [LogRecord] = []
        for t in 0..<10 {
            let lat = 35.68 + Double(t) * 1e-5
            records.append(record(Double(t), lat, 139.76, device: "A"))
            if t < 4 || t > 8 { records.append(record(Double(t) + 0.5, lat, 139.76033, device: "B")) }
        }
        return records
    }

    static func record(_ t: Double, _ lat: Double, _ lon: Double, device: String?) -> LogRecord {
        var r = TrackSummaryTests.record(t, lat, lon)
        r.device = device
        return r
    }

    /// A's path, measured as one receiver alone.
    static func alone(_ device: String) -> Double {
        let mine = twoReceivers().filter { $0.device == device }.map { (r: LogRecord) -> LogRecord in
            var r = r
            r.device = nil
            return r
        }
        return TrackSummary(Track(mine, gap: 10), bytes: 0).distance
    }

    @Test func eachReceiverHasItsOwnDistanceNeverTheZigzagSum() throws {
        let summary = TrackSummary(Track(Self.twoReceivers(), gap: 10), bytes: 0)
        #expect(summary.receivers.map(\.device) == ["A", "B"])
        #expect(summary.receivers.map(\.fixes) == [10, 5])
        let a = Self.alone("A"), b = Self.alone("B")
        #expect(a > 9 && a < 11 && b > 9 && b < 11, "A \(a) m, B \(b) m")
        #expect(summary.receivers.map(\.distance) == [a, b])
        // The headline figure is the receiver with the most fixes, not A + B nor the zigzag (~540 m).
        #expect(summary.distance == a)
        // B's 5.5 s between t 3.5 and 9.5 is no gap at 10 s, and A's steps are not B's.
        #expect(summary.gaps.isEmpty)
        let short = TrackSummary(Track(Self.twoReceivers(), gap: 5), bytes: 0)
        #expect(short.gaps.map(\.device) == ["B"])
        #expect(SummaryRenderer.render(short, files: ["two.jsonl"]).contains("6 s, 6.7 m apart (B)"), "6 steps of 1e-5° north")
    }

    @Test func linesNeverJoinTwoReceivers() {
        let track = Track(Self.twoReceivers(), gap: 10)
        #expect(track.lines.count == 2)
        for line in track.lines {
            #expect(Set(line.map { track.points[$0].device }).count == 1)
            #expect(line == line.sorted())
        }
    }

    @Test func summaryTextAndJSONGiveEachReceiversDistance() throws {
        let summary = TrackSummary(Track(Self.twoReceivers(), gap: 10), bytes: 0)
        let text = SummaryRenderer.render(summary, files: ["two.jsonl"])
        let a = SummaryRenderer.length(Self.alone("A")), b = SummaryRenderer.length(Self.alone("B"))
        #expect(text.contains("distance: \(a) along A, \(b) along B (WGS-84 geodesic)"), "\(text)")
        let json = try JSONValue.parse(Array(SummaryRenderer.renderJSON(summary, files: ["two.jsonl"]).utf8))
        let receivers = try #require(json["receivers"]?.arrayValue)
        #expect(receivers.compactMap { $0["device"]?.stringValue } == ["A", "B"])
        #expect(receivers.compactMap { $0["distance_m"]?.numberValue } == [TrackSummary.rounded(Self.alone("A")), TrackSummary.rounded(Self.alone("B"))])
        // A log naming no receiver has no `receivers` key.
        let plain = TrackSummary(Track(TrackSummaryTests.gappy(), gap: 10), bytes: 0)
        #expect(!SummaryRenderer.renderJSON(plain, files: ["x"]).contains("receivers"))
    }

    @Test func thePlotDrawsEachReceiverAsItsOwnDashedLine() throws {
        let track = Track(Self.twoReceivers(), gap: 10)
        let svg = String(decoding: TrackPlot(track, summary: TrackSummary(track, bytes: 0)).svg(), as: UTF8.self)
        #expect(svg.contains(#"<polyline data-device="A" points=""#), "\(svg)")
        #expect(svg.contains(#"<polyline data-device="B" stroke-dasharray="6 3" points=""#), "\(svg)")
        let single = Track(TrackSummaryTests.gappy(), gap: 10)
        let plain = String(decoding: TrackPlot(single, summary: TrackSummary(single, bytes: 0)).svg(), as: UTF8.self)
        #expect(plain.contains(#"<polyline points=""#) && !plain.contains("stroke-dasharray"))
        // #39: the legend says which line is which: each receiver's dash pattern beside its name.
        let legend = try #require(svg.components(separatedBy: #"<g id="legend""#).last)
        #expect(legend.contains(">receivers:</text>"), "\(legend)")
        #expect(legend.contains(##"<line class="receiver" stroke="#555555" stroke-width="1.5" x1="##), "\(legend)")
        #expect(legend.contains(##"<line class="receiver" stroke="#555555" stroke-width="1.5" stroke-dasharray="6 3" x1="##), "\(legend)")
        #expect(legend.contains(">A</text>") && legend.contains(">B</text>"), "\(legend)")
        // And on the map, beside each track.
        let map = try #require(svg.components(separatedBy: #"<g id="legend""#).first)
        #expect(map.contains(">A</text>") && map.contains(">B</text>"))
        #expect(!plain.contains(#"class="receiver""#) && !plain.contains("receivers:"))
    }
}
