import Glibc

/// sin and cos of an angle that moves a little at a time (a receiver's
/// latitude or longitude from one fix to the next), from the previous values
/// and the angle-addition formulas with a short Taylor series for the small
/// step: no libm call on the hot path.
///
/// For steps under 10⁻³ rad the series' truncation error is below 10⁻²⁸, and
/// each step adds a few ulps of rounding; an exact recomputation every
/// `refreshInterval` steps bounds the drift to about 10⁻¹⁴ (below 0.1 µm on
/// the Earth), inside `GeodesicThreshold`'s micrometre slack.
struct IncrementalSinCos: Sendable {
    private var angle = Double.nan
    private var sine = 0.0
    private var cosine = 1.0
    private var steps = 0

    static let maximumStep = 1e-3
    static let refreshInterval = 32

    /// (sin x, cos x) for x in radians.
    @inline(__always)
    mutating func callAsFunction(_ x: Double) -> (sin: Double, cos: Double) {
        let d = x - angle
        if abs(d) < Self.maximumStep, steps < Self.refreshInterval {
            let d2 = d * d
            let cd = 1 - d2 * (0.5 - d2 * (1.0 / 24 - d2 * (1.0 / 720)))
            let sd = d * (1 - d2 * (1.0 / 6 - d2 * (1.0 / 120 - d2 * (1.0 / 5040))))
            let s = sine * cd + cosine * sd
            let c = cosine * cd - sine * sd
            angle = x
            sine = s
            cosine = c
            steps += 1
            return (s, c)
        }
        angle = x
        sine = sin(x)
        cosine = cos(x)
        steps = 0
        return (sine, cosine)
    }
}
