import LocationValues
import Glibc

/// The privacy measure of docs/authorization.md §14: how much an attacker gains by averaging
/// many reported positions of a stationary receiver.
///
/// `|mean of the positions − truth| / mean over i of |position_i − truth|`,
/// in local east/north metres around the truth. Near 1: averaging gains
/// nothing; near 0: the mean converges on the truth (independent noise).
public enum AveragingGain {
    /// The gain for positions reported for a receiver standing at `truth`. Degenerate cases (no positions,
    /// or every position exactly the truth) give 0, the failing end of the scale.
    public static func measure(truthLatitude: Double, truthLongitude: Double, positions: [(latitude: Double, longitude: Double)]) -> Double {
        guard !positions.isEmpty else { return 0 }
        let phi = truthLatitude * Geodesy.degrees
        let sinPhi = sin(phi)
        let w = 1 - Geodesy.eccentricitySquared * sinPhi * sinPhi
        let n = Geodesy.semiMajorAxis / w.squareRoot()
        let m = Geodesy.semiMajorAxis * (1 - Geodesy.eccentricitySquared) / (w * w.squareRoot())
        var sumEast = 0.0, sumNorth = 0.0, sumDistance = 0.0
        for p in positions {
            let dLon = (p.longitude - truthLongitude).remainder(dividingBy: 360)
            let east = dLon * Geodesy.degrees * n * cos(phi)
            let north = (p.latitude - truthLatitude) * Geodesy.degrees * m
            sumEast += east
            sumNorth += north
            sumDistance += (east * east + north * north).squareRoot()
        }
        let count = Double(positions.count)
        let meanDistance = sumDistance / count
        guard meanDistance > 0 else { return 0 }
        let bias = ((sumEast / count) * (sumEast / count) + (sumNorth / count) * (sumNorth / count)).squareRoot()
        return bias / meanDistance
    }
}
