import Glibc

/// One client's reduced-accuracy secret (docs/authorization.md §6): its offset, the random
/// source that drifts it, and the clocks of the drift and of the delivery
/// interval. Saved with the client's state, so a restart neither draws a fresh
/// offset nor resets the interval.
///
/// The offset is kept in units of σ (each axis a standard normal value) and
/// scaled by grid / 4 when used, so changing `reduced_grid` rescales it
/// instead of redrawing it.
public struct ReducedAccuracyState: Sendable, Hashable {
    /// East offset in units of σ.
    public var offsetEast: Double
    /// North offset in units of σ.
    public var offsetNorth: Double
    /// The random source for drift steps.
    public var random: Xoshiro256
    /// The UTC hour (fix time / 3600, floored) the offset was last drifted to; `nil` before the first reduced fix.
    public var driftHour: Double?
    /// Wall-clock UTC seconds of the last reduced delivery, for `reduced_interval` across restarts
    /// (within one run the engine's monotonic clock decides; see `ReducedRateLimit`).
    public var lastDelivery: Double?

    /// The drift weight a of `o = sqrt(1 − a²)·o + a·fresh`, applied once an hour.
    public static let drift = 0.03

    /// A fresh secret: the offset is the generator's first Gaussian pair.
    public init(random: Xoshiro256) {
        var random = random
        (offsetEast, offsetNorth) = random.nextGaussianPair()
        self.random = random
        driftHour = nil
        lastDelivery = nil
    }

    /// A secret from its parts (a saved state).
    init(offsetEast: Double, offsetNorth: Double, random: Xoshiro256, driftHour: Double?, lastDelivery: Double?) {
        self.offsetEast = offsetEast
        self.offsetNorth = offsetNorth
        self.random = random
        self.driftHour = driftHour
        self.lastDelivery = lastDelivery
    }

    /// The offset in metres, east and north, for a grid of `grid` metres (σ = grid / 4).
    public func offset(grid: Double) -> (east: Double, north: Double) {
        (offsetEast * grid / 4, offsetNorth * grid / 4)
    }

    /// Drifts the offset to the hour containing `time` (UTC seconds).
    ///
    /// k hourly steps of `o = ρ·o + a·fresh` (ρ = sqrt(1 − a²)) compose to
    /// `o = ρᵏ·o + sqrt(1 − ρ²ᵏ)·fresh` in distribution, so a gap of any
    /// length costs one draw and the spread stays the same. Time running
    /// backwards (an older replay) does not drift.
    public mutating func advance(toTime time: Double) {
        guard time.isFinite else { return }
        let hour = (time / 3600).rounded(.down)
        guard let last = driftHour else {
            driftHour = hour
            return
        }
        guard hour > last else { return }
        let steps = hour - last
        let rhoSquared = 1 - Self.drift * Self.drift
        let keep = pow(rhoSquared, steps / 2)
        let fresh = (1 - pow(rhoSquared, steps)).squareRoot()
        let (e, n) = random.nextGaussianPair()
        offsetEast = keep * offsetEast + fresh * e
        offsetNorth = keep * offsetNorth + fresh * n
        driftHour = hour
    }

    /// Repairs values a hand-edited or damaged state file could hold (non-finite offsets or clocks):
    /// draws a fresh offset only where the saved one is unusable.
    mutating func sanitize() {
        if !offsetEast.isFinite || !offsetNorth.isFinite {
            (offsetEast, offsetNorth) = random.nextGaussianPair()
        }
        if let hour = driftHour, !hour.isFinite { driftHour = nil }
        if let last = lastDelivery, !last.isFinite { lastDelivery = nil }
    }
}
