/// A replay's monotonic clock, built from the fixes' own times (docs/design.md §8,
/// docs/authorization.md §5 and "Receiver time"): it starts at the first fix's time
/// and advances by each forward step between consecutive fix times; a step
/// back advances it by nothing. The engine's timers (Allow Once grace, locate
/// timeout, reduced_interval, outage detection) run on it, so a recording
/// with a clock that steps back, or one epoch dated a year ahead, cannot stop
/// them — and a replay stays deterministic.
struct ReplayClock {
    /// The clock's reading after the latest fix; `nil` before the first.
    private(set) var now: Double?
    /// The latest fix time.
    private(set) var lastFixTime: Double?

    /// Advances to fix time `time` (finite) and returns the new reading.
    mutating func advance(toFixTime time: Double) -> Double {
        let reading: Double
        if let now, let last = lastFixTime {
            reading = time > last ? now + (time - last) : now
        } else {
            reading = time
        }
        now = reading
        lastFixTime = time
        return reading
    }

    /// The reading for a replay event at UTC `at`: on the clock's time line `at − lastFixTime` after
    /// the latest fix, never before the current reading and never after `limit` (the reading of the
    /// fix about to be handled, when there is one). Before any fix it is `at` itself.
    func reading(forEventAt at: Double, limit: Double? = nil) -> Double {
        guard let now, let last = lastFixTime else { return min(at, limit ?? at) }
        let ahead = now + max(0, at - last)
        return min(ahead, max(limit ?? ahead, now))
    }
}
