import Glibc

/// Answers "is the geodesic distance at least `meters`?" exactly, but usually
/// without solving the geodesic.
///
/// The chord c between two points never exceeds the geodesic s between them,
/// so c ≥ t proves s ≥ t. The other way: a geodesic's curvature in space is
/// at most 1/R with R = b²/a, the smallest radius of curvature of the
/// ellipsoid, so by Schur's comparison theorem its chord is at least that of a
/// circular arc of radius R of the same length: c ≥ 2R·sin(s / 2R). Hence
/// c < 2R·sin(t / 2R) proves s < t. Only a chord inside that band (about a
/// millimetre wide at 10 km) needs the full inverse solution. The band edges
/// carry a micrometre of slack for rounding in the ECEF coordinates.
public struct GeodesicThreshold: Sendable, Hashable {
    /// The threshold in metres.
    public let meters: Double
    /// A chord² at or above this proves the distance is reached.
    let reachedSquared: Double
    /// A chord² below this proves the distance is not reached.
    let notReachedSquared: Double

    /// Thresholds up to this use the curvature bound; beyond it every undecided case is solved exactly
    /// (the comparison theorem needs the arc to be shorter than πR, which holds comfortably below it).
    static let boundLimit = 1_000_000.0
    static let slack = 1e-6

    /// A threshold of `meters` (finite, ≥ 0).
    public init(meters: Double) {
        self.meters = meters
        let reached = meters + Self.slack
        reachedSquared = reached * reached
        if meters <= Self.boundLimit {
            let r = Geodesy.minimumRadiusOfCurvature
            let chord = max(0, 2 * r * sin(meters / (2 * r)) - Self.slack)
            notReachedSquared = chord * chord
        } else {
            notReachedSquared = 0
        }
    }

    /// Whether the geodesic distance from `a` to `b` is at least `meters`.
    @inline(__always)
    public func isReached(from a: EarthPoint, to b: EarthPoint) -> Bool {
        let c2 = a.squaredChord(to: b)
        if c2 >= reachedSquared { return true }
        if c2 < notReachedSquared { return false }
        return a.distance(to: b) >= meters
    }
}
