import Testing

@testable import LocationDaemon

/// The timeout a gpsd session's blocking waits are armed with: never past the deadline, at most
/// `band` before it, and armed anew only when the armed one no longer fits.
@Suite(.timeLimit(.minutes(10))) struct GPSDReceiveTimeoutTests {
    @Test func noDeadlineArmsNone() {
        var timeout = GPSDReceiveTimeout()
        #expect(timeout.milliseconds(until: nil, now: 5) == -1)
        #expect(timeout.milliseconds(until: 6, now: 5) == 900)
        #expect(timeout.milliseconds(until: nil, now: 5.5) == -1)
        #expect(timeout.armed == -1)
    }

    @Test func aDeadlineThatHasComeDoesNotBlockAndKeepsTheArmedTimeout() {
        var timeout = GPSDReceiveTimeout()
        #expect(timeout.milliseconds(until: 11, now: 10) == 900)
        #expect(timeout.milliseconds(until: 10, now: 10) == 0)
        #expect(timeout.milliseconds(until: 9, now: 10) == 0)
        #expect(timeout.armed == 900)
    }

    /// gpsd at 146 reports a second, a sync due 1.1 s after the first line: the waits of a tenth
    /// of a second share one timeout, and none is armed to end past the deadline.
    @Test func whileInputKeepsComingOneTimeoutServesTheWaitsOfATenthOfASecond() {
        var timeout = GPSDReceiveTimeout()
        let deadline = 101.1
        var armings = 0
        var last: Int32 = -1
        var now = 100.0
        // Until the line is 0.9 s old: the reader's pause syncs it then.
        while now < 100.9 {
            let value = timeout.milliseconds(until: deadline, now: now)
            if value != last { armings += 1 }
            last = value
            let ends = now + Double(value) / 1000
            #expect(ends <= deadline + GPSDReceiveTimeout.grain, "at \(now): \(value) ms")
            #expect(ends >= deadline - GPSDReceiveTimeout.band - GPSDReceiveTimeout.grain, "at \(now): \(value) ms")
            now += 1.0 / 146
        }
        #expect(armings >= 9 && armings <= 11, "\(armings) timeouts armed in a second")
    }

    /// A deadline that moves on with the input (the liveness probe: so long after the last
    /// report) keeps the timeout armed at the first wait.
    @Test func aDeadlineThatMovesOnWithTheInputKeepsItsTimeout() {
        var timeout = GPSDReceiveTimeout()
        var values: Set<Int32> = []
        for second in 0..<10 {
            let epoch = 100.0 + Double(second) + (second % 2 == 0 ? 0.0004 : -0.0003)
            values.insert(timeout.milliseconds(until: epoch + 5, now: epoch))
        }
        #expect(values == [4900])
    }

    /// One epoch a second whose line's sync is due 1.1 s on, and a second report 0.8 s after the
    /// epoch's: each wait needs a timeout of its own, as each needed a poll(2) before.
    @Test func aFixedDeadlineLaterInTheSecondIsArmedAgainByTheWaitsBeforeIt() {
        var timeout = GPSDReceiveTimeout()
        #expect(timeout.milliseconds(until: 101.1, now: 100) == 1000)
        #expect(timeout.milliseconds(until: 101.1, now: 100.8) == 200)
    }

    /// A deadline closer than twice the band (an epoch's silence) is armed for half the time
    /// left, so the waits while it comes closer re-arm a handful of times, not at each report.
    @Test func aCloseDeadlineIsArmedForHalfTheTimeLeft() {
        var timeout = GPSDReceiveTimeout()
        #expect(timeout.milliseconds(until: 10.125, now: 10) == 63)
        var armings = 1
        var last: Int32 = 63
        var now = 10.0
        while now < 10.125 {
            let value = timeout.milliseconds(until: 10.125, now: now)
            if value != last { armings += 1 }
            last = value
            #expect(now + Double(value) / 1000 <= 10.125 + GPSDReceiveTimeout.grain)
            now += 1.0 / 146
        }
        #expect(armings <= 6, "\(armings) timeouts armed")
    }

    /// A wait that ran out early (input stopped) is followed by one armed to end at the deadline.
    @Test func afterATimeoutTheRestIsWaitedExactly() {
        var timeout = GPSDReceiveTimeout()
        #expect(timeout.milliseconds(until: 11.1, now: 10) == 1000)
        #expect(timeout.milliseconds(until: 11.1, now: 11.0, afterTimeout: true) == 100)
        #expect(timeout.milliseconds(until: 11.1, now: 11.0, afterTimeout: true) == 100)
        #expect(timeout.milliseconds(until: 10.0004, now: 10, afterTimeout: true) == 1)
    }

    /// A timeout armed for a far deadline ends a wait too early for a deadline that moved on;
    /// one armed for a late deadline ends it too late for one that came closer.
    @Test func aDeadlineThatMovesRearmsTheTimeout() {
        var timeout = GPSDReceiveTimeout()
        #expect(timeout.milliseconds(until: 10.5, now: 10) == 400)
        #expect(timeout.milliseconds(until: 15, now: 10) == 4900)
        #expect(timeout.milliseconds(until: 10.5, now: 10) == 400)
    }
}
