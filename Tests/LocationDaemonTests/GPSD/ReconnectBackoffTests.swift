import Testing

@testable import LocationDaemon

@Suite(.timeLimit(.minutes(10))) struct ReconnectBackoffTests {
    @Test func delaysDoubleFromAQuickFirstRetryUpToTheCap() {
        var backoff = ReconnectBackoff()
        let delays = (0..<9).map { _ in backoff.nextDelay() }
        #expect(delays == [0.125, 0.25, 0.5, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75])
        #expect(delays[0] <= 0.25, "the first retry comes within 250 ms")
        #expect(delays.allSatisfy { $0 < 1 }, "gpsd listening again is reconnected to within a second")
    }

    @Test(arguments: [0.05, 0.3, 2.0, 7.5])
    func delaysNeverExceedTheCap(cap: Double) {
        var backoff = ReconnectBackoff(policy: .init(initial: 0.01, multiplier: 3, cap: cap))
        for _ in 0..<40 { #expect(backoff.nextDelay() <= cap) }
    }

    @Test func aStableSessionResetsTheSequence() {
        var backoff = ReconnectBackoff()
        for _ in 0..<6 { _ = backoff.nextDelay() }
        backoff.sessionEnded(after: 3600)
        #expect(backoff.nextDelay() == 0.125)
    }

    @Test func aShortSessionKeepsBackingOff() {
        var backoff = ReconnectBackoff()
        for _ in 0..<2 { _ = backoff.nextDelay() }
        backoff.sessionEnded(after: 0.5)
        #expect(backoff.nextDelay() == 0.5)
    }
}
