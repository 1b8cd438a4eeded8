import Testing
@testable import LocationCore
@testable import LocationProtocol

/// The hysteresis around the ranking: keep the chosen receiver until it has been silent for
/// `failover` seconds, or another has been clearly better for `ReceiverChoice.sustain` seconds.
@Suite struct ReceiverChoiceTests {
    static let good = ReceiverQuality(mode: .threeD, horizontalError: 3)
    static let poor = ReceiverQuality(mode: .threeD, horizontalError: 15)

    @Test func theFirstReceiverWithAFixIsChosenAndKeptWhileAPoorerOneReports() {
        var choice = ReceiverChoice(failover: 3)
        #expect(choice.observe("B", quality: nil, now: 0) == nil)
        #expect(choice.observe("A", quality: Self.good, now: 0)?.reason == .first)
        for t in 1...60 {
            #expect(choice.observe("B", quality: Self.poor, now: Double(t)) == nil)
            #expect(choice.observe("A", quality: Self.good, now: Double(t)) == nil)
        }
        #expect(choice.chosen == "A")
    }

    @Test func aSilentReceiverIsLeftAfterFailoverSecondsAndNotBefore() {
        var choice = ReceiverChoice(failover: 3)
        _ = choice.observe("A", quality: Self.good, now: 10)
        _ = choice.observe("B", quality: Self.poor, now: 10)
        #expect(choice.observe("B", quality: Self.poor, now: 11) == nil)
        #expect(choice.observe("B", quality: Self.poor, now: 12.9) == nil)
        let change = choice.observe("B", quality: Self.poor, now: 13)
        #expect(change == ReceiverChoice.Switch(from: "A", to: "B", reason: .silent(seconds: 3)))
        // A back: B is kept, A is not clearly better until it has been for 10 s.
        for t in 14...23 {
            _ = choice.observe("B", quality: Self.poor, now: Double(t))
            #expect(choice.observe("A", quality: Self.good, now: Double(t)) == nil)
        }
        _ = choice.observe("B", quality: Self.poor, now: 24)
        #expect(choice.observe("A", quality: Self.good, now: 24)?.reason == .better(metres: 12))
    }

    @Test func aReceiverReportingNoFixCountsAsSilent() {
        var choice = ReceiverChoice(failover: 3)
        _ = choice.observe("A", quality: Self.good, now: 0)
        for t in 1...2 {
            _ = choice.observe("A", quality: nil, now: Double(t))
            #expect(choice.observe("B", quality: Self.poor, now: Double(t)) == nil)
        }
        _ = choice.observe("A", quality: nil, now: 3)
        #expect(choice.observe("B", quality: Self.poor, now: 3)?.to == "B")
    }

    @Test func atTheStartABetterReceiverTakesOverAtOnceButOnlyThen() {
        var choice = ReceiverChoice(failover: 3)
        _ = choice.observe("B", quality: Self.poor, now: 0)
        let change = choice.observe("A", quality: Self.good, now: 0.4)
        #expect(change?.reason == .outranksAtStart(seconds: 0.4, metres: 12))
        // #39: what is said is what happened, not the 10 s rule that did not apply.
        #expect(change?.sentence == "following A: ranks above B, the first receiver with a fix 0.4 s before (estimate 12.0 m smaller)")
        var later = ReceiverChoice(failover: 3)
        _ = later.observe("B", quality: Self.poor, now: 0)
        _ = later.observe("B", quality: Self.poor, now: 3)
        #expect(later.observe("A", quality: Self.good, now: 3) == nil)
    }

    @Test func betterOnlySometimesNeverSwitches() {
        var choice = ReceiverChoice(failover: 3)
        _ = choice.observe("A", quality: Self.poor, now: 0)
        // Past the start, when a better receiver would take over at once.
        for t in 4...60 {
            _ = choice.observe("A", quality: Self.poor, now: Double(t))
            // Clearly better on nine seconds out of ten: the run starts again each time.
            let q = t % 10 == 0 ? Self.poor : Self.good
            #expect(choice.observe("B", quality: q, now: Double(t)) == nil)
        }
        #expect(choice.chosen == "A")
    }

    @Test func failoverGoesToTheBestFreshReceiver() {
        var choice = ReceiverChoice(failover: 3)
        _ = choice.observe("A", quality: Self.good, now: 0)
        _ = choice.observe("C", quality: ReceiverQuality(mode: .threeD, horizontalError: 5), now: 2.5)
        #expect(choice.observe("B", quality: Self.poor, now: 4)?.to == "C")
    }
}
