/// The receive timeout a gpsd session's waits are armed with (`cgps_wait`:
/// SO_RCVTIMEO, counted from the start of each wait). The reader waits in
/// recv(2) itself, with no poll(2) before it, so a timeout that changed costs
/// a setsockopt(2) of its own; this keeps the armed one while it still ends a
/// wait at its deadline or less than `band` before it. While input keeps
/// coming the deadline stays put and every wait starts later, so the timeout
/// is armed `band` short of the deadline and serves the waits of the next
/// `band` seconds: at gpsd's 146 reports a second about ten setsockopt(2) a
/// second instead of 146 poll(2). A deadline that moves on with the input
/// (the liveness probe) keeps its timeout. At one epoch a second, where the
/// next report comes most of a second later, each wait arms its own: a
/// setsockopt(2) where there was a poll(2). A wait that runs out up to
/// `band` early finds its deadline not yet come and waits once more, armed
/// for the rest exactly.
struct GPSDReceiveTimeout: Sendable, Equatable {
    /// How much earlier than its deadline a wait may end.
    static let band = 0.1
    /// How much later than its deadline a wait may end: the millisecond the
    /// timeout is rounded up to.
    static let grain = 0.001

    /// The armed timeout in milliseconds; -1: none, a wait lasts until input.
    private(set) var armed: Int32 = -1

    /// The timeout to pass to `cgps_wait` for a wait that must end by
    /// `deadline` (monotonic seconds; nil: none) when it starts at `now`: the
    /// armed one when it still fits, 0 when the deadline has come (a wait
    /// that does not block), else a new one. After a wait that ran out
    /// (`afterTimeout`), input has stopped, so the wait is armed to end at the
    /// deadline itself.
    mutating func milliseconds(until deadline: Double?, now: Double, afterTimeout: Bool = false) -> Int32 {
        guard let deadline else {
            armed = -1
            return armed
        }
        let remaining = deadline - now
        guard remaining > 0 else { return 0 }
        let earliest = afterTimeout ? remaining - Self.grain : remaining - Self.band
        if armed > 0 {
            let ends = Double(armed) / 1000
            if ends <= remaining + Self.grain && ends >= earliest { return armed }
        }
        // `band` short of the deadline (half the time left when that is under twice `band`), so
        // that the waits that start while the deadline comes closer keep it.
        let target: Double
        if afterTimeout {
            target = remaining
        } else {
            target = remaining > 2 * Self.band ? remaining - Self.band : remaining / 2
        }
        armed = Int32(min(max(1, (target * 1000).rounded(.up)), Double(Int32.max)))
        return armed
    }
}
