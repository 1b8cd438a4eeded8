/// Reduced accuracy's "at most one delivery per `reduced_interval`" (docs/authorization.md
/// §4, step 6) on the engine's monotonic clock, so a receiver's time jump can
/// neither open it early nor shut it for a year.
///
/// Across restarts the last delivery is saved as UTC (`ReducedAccuracyState
/// .lastDelivery`, the owner's wall clock at that delivery). On the first use
/// after loading, the time since then on today's wall clock is clamped to
/// [0, interval]: a wall clock behind the saved time (a board without an RTC
/// booting in 1970, a saved time from a bad receiver date) waits one whole
/// interval, never longer; a client never gets its next fix earlier than the
/// wall clock allows.
struct ReducedRateLimit: Sendable, Hashable {
    /// Engine `now` (monotonic) of the last reduced delivery in this run of the engine.
    private(set) var lastAt: Double?
    /// The saved UTC of the last delivery, not yet placed on the monotonic clock.
    private var savedUTC: Double?

    /// A limit restoring a saved last delivery (UTC seconds), if any.
    init(savedUTC: Double? = nil) {
        self.savedUTC = savedUTC.flatMap { $0.isFinite ? $0 : nil }
    }

    /// Whether a reduced fix may go out at `now`; `utc` is the wall clock at `now`.
    mutating func isOpen(now: Double, utc: Double, interval: Double) -> Bool {
        if let saved = savedUTC {
            savedUTC = nil
            let elapsed = min(max(utc - saved, 0), interval.isFinite ? max(interval, 0) : 0)
            lastAt = now - elapsed
        }
        guard let last = lastAt else { return true }
        return now - last >= interval
    }

    /// Seconds until it opens (0 when open), without consuming the saved time.
    func remaining(now: Double, utc: Double, interval: Double) -> Double {
        var copy = self
        guard !copy.isOpen(now: now, utc: utc, interval: interval), let last = copy.lastAt else { return 0 }
        return max(0, last + interval - now)
    }

    /// A reduced fix went out at `now`.
    mutating func delivered(now: Double) {
        savedUTC = nil
        lastAt = now
    }
}
