import Glibc
import LocationValues

/// Metres east and north of a reference point, for the field-test statistics and the scatter plot.
///
/// The offset is the difference of the two points' Earth-centred, Earth-fixed
/// coordinates (both on the WGS-84 ellipsoid, height 0) turned into the
/// reference's local east-north-up frame, keeping east and north: the
/// point's projection onto the tangent plane. Its length falls short of the
/// geodesic distance by about s³/6R², under 0.5 mm at 5 km, and its direction
/// agrees with the geodesic azimuth to well under a millimetre across, so
/// over a field test's few kilometres it matches the azimuthal-equidistant
/// offsets (geodesic distance along the geodesic azimuth) GeographicLib
/// gives to far better than 1 cm (`Tests/LocationToolsTests/Vectors`).
public struct LocalTangentPlane: Sendable, Hashable {
    /// The reference point.
    public let origin: EarthPoint
    let sinLat: Double, cosLat: Double, sinLon: Double, cosLon: Double

    /// The plane touching the ellipsoid at this latitude and longitude (degrees).
    public init(latitude: Double, longitude: Double) {
        origin = EarthPoint(latitude: latitude, longitude: longitude)
        let phi = latitude * Geodesy.degrees, lambda = longitude * Geodesy.degrees
        sinLat = sin(phi)
        cosLat = cos(phi)
        sinLon = sin(lambda)
        cosLon = cos(lambda)
    }

    /// Metres east and north of the origin.
    public func offset(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        let p = EarthPoint(latitude: latitude, longitude: longitude)
        let dx = p.x - origin.x, dy = p.y - origin.y, dz = p.z - origin.z
        let east = -sinLon * dx + cosLon * dy
        let north = -sinLat * cosLon * dx - sinLat * sinLon * dy + cosLat * dz
        return (east, north)
    }
}
