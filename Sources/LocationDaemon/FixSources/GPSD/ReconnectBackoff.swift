/// When to try gpsd again after a failed or lost connection: capped
/// exponential backoff, deterministic (one client needs no jitter to avoid a
/// thundering herd, and tests can predict it).
///
/// Delays run `initial`, `initial·multiplier`, … up to `cap`, which is short
/// (0.75 s): gpsd coming back is reconnected to within a second of it
/// listening again, whichever attempt it is; a refused connection to a
/// local gpsd costs next to nothing, so waiting longer only loses fixes. A session that
/// stayed up for `stableAfter` seconds resets the sequence, so a gpsd restart
/// after hours of service is retried within `initial`; a gpsd that accepts and
/// drops us at once keeps backing off instead of being hammered.
struct ReconnectBackoff: Sendable, Hashable {
    /// The numbers that shape the sequence.
    struct Policy: Sendable, Hashable {
        /// Delay before the first retry, seconds.
        var initial: Double = 0.125
        /// Growth per failed attempt.
        var multiplier: Double = 2
        /// Longest delay, seconds: below 1 s, so gpsd listening again is noticed within a second.
        var cap: Double = 0.75
        /// A session at least this long (seconds) counts as healthy and resets the sequence.
        var stableAfter: Double = 5
    }

    /// The policy in force.
    let policy: Policy
    private var next: Double

    /// A fresh sequence under `policy`.
    init(policy: Policy = Policy()) {
        self.policy = policy
        self.next = policy.initial
    }

    /// The delay to wait before the next attempt, advancing the sequence.
    mutating func nextDelay() -> Double {
        let delay = next
        next = min(policy.cap, next * policy.multiplier)
        return delay
    }

    /// A session that had been up for `duration` seconds has ended.
    mutating func sessionEnded(after duration: Double) {
        if duration >= policy.stableAfter { reset() }
    }

    /// Starts the sequence over.
    mutating func reset() {
        next = policy.initial
    }
}
