import Testing
import LocationTools

/// `summary` counts heartbeat lines (`heartbeat`), which are not track points.
@Suite struct HeartbeatSummaryTests {
    @Test func summaryCountsHeartbeatsInTextAndJSON() {
        var summary = TrackSummary(Track([], gap: 10), bytes: 0)
        #expect(!SummaryRenderer.render(summary, files: ["f"], reference: nil, receivers: []).contains("heartbeats"))
        summary.heartbeats = 3
        #expect(SummaryRenderer.render(summary, files: ["f"], reference: nil, receivers: []).contains("heartbeats: 3"))
        #expect(SummaryRenderer.renderJSON(summary, files: ["f"], reference: nil, receivers: []).contains(#""heartbeats":3"#))
    }
}
