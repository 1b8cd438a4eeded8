import LocationValues
import Glibc

/// The reduced-accuracy obfuscation of docs/authorization.md §6: secret offset, hourly drift,
/// grid snap, and only what a coarse position may say.
public enum ReducedAccuracy {
    /// The smallest grid allowed (docs/authorization.md §6), in metres.
    public static let minimumGrid = 200.0
    /// Length of one degree of latitude on the mean meridian, in metres: the grid's latitude step is
    /// fixed in degrees, so it never depends on the position it hides.
    public static let metresPerDegreeLatitude = 111_132.954

    /// The fix a reduced client sees: (true position + offset) snapped to the
    /// grid; altitude, vertical error, speed and course removed; horizontal
    /// error max(grid, the receiver's estimate). Drifts `state` to the fix's hour first.
    public static func obfuscate(_ fix: Fix, state: inout ReducedAccuracyState, grid: Double) -> Fix {
        let grid = max(grid.isFinite ? grid : minimumGrid, minimumGrid)
        if let time = fix.time { state.advance(toTime: time) }
        let (east, north) = state.offset(grid: grid)
        let (lat, lon) = shift(latitude: fix.latitude, longitude: fix.longitude, east: east, north: north)
        let (snappedLat, snappedLon) = snap(latitude: lat, longitude: lon, grid: grid)
        var out = Fix(time: fix.time, mode: fix.mode, latitude: snappedLat, longitude: snappedLon)
        out.horizontalError = max(grid, fix.horizontalError ?? grid)
        out.satellitesUsed = fix.satellitesUsed
        out.device = fix.device
        return out
    }

    /// Moves a position by metres east and north (local radii of curvature); over a pole it comes down
    /// the other side. The result has latitude in [-90, 90] and longitude in [-180, 180).
    public static func shift(latitude: Double, longitude: Double, east: Double, north: Double) -> (Double, Double) {
        let phi = latitude * Geodesy.degrees
        let sinPhi = sin(phi)
        let w = 1 - Geodesy.eccentricitySquared * sinPhi * sinPhi
        let n = Geodesy.semiMajorAxis / w.squareRoot()
        let m = Geodesy.semiMajorAxis * (1 - Geodesy.eccentricitySquared) / (w * w.squareRoot())
        // At the pole itself "east" has no direction; a tiny cosine keeps the arithmetic finite.
        let cosPhi = max(cos(phi), 1e-9)
        var lat = latitude + north / m / Geodesy.degrees
        var lon = longitude + east / (n * cosPhi) / Geodesy.degrees
        if lat > 90 {
            lat = 180 - lat
            lon += 180
        } else if lat < -90 {
            lat = -180 - lat
            lon += 180
        }
        return (min(max(lat, -90), 90), wrapLongitude(lon))
    }

    /// Snaps to the grid: latitude to a fixed step in degrees, then longitude
    /// to a step derived from the snapped latitude, rounded so that a whole
    /// number of cells fills each parallel (no seam at the antimeridian; one
    /// cell at a pole).
    public static func snap(latitude: Double, longitude: Double, grid: Double) -> (Double, Double) {
        let latStep = grid / metresPerDegreeLatitude
        let lat = min(max((latitude / latStep).rounded() * latStep, -90), 90)
        let phi = lat * Geodesy.degrees
        let sinPhi = sin(phi)
        let n = Geodesy.semiMajorAxis / (1 - Geodesy.eccentricitySquared * sinPhi * sinPhi).squareRoot()
        let parallel = 2 * Double.pi * n * max(cos(phi), 0)
        let cells = max(1, (parallel / grid).rounded(.down))
        let lonStep = 360 / cells
        // Cell index around the parallel; the last cell's far edge is the first cell's near one.
        var k = ((wrapLongitude(longitude) + 180) / lonStep).rounded()
        if k >= cells { k -= cells }
        return (lat, k * lonStep - 180)
    }

    /// A longitude in [-180, 180).
    static func wrapLongitude(_ lon: Double) -> Double {
        guard lon.isFinite else { return 0 }
        var l = lon.remainder(dividingBy: 360)
        if l >= 180 { l -= 360 }
        return l
    }
}
