import Glibc

/// A position on the WGS-84 ellipsoid (height 0), kept both as degrees and as
/// Earth-centred, Earth-fixed coordinates so that chords are cheap.
public struct EarthPoint: Sendable, Hashable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// ECEF x in metres.
    public var x: Double
    /// ECEF y in metres.
    public var y: Double
    /// ECEF z in metres.
    public var z: Double

    /// The point at this latitude and longitude (degrees, finite).
    public init(latitude: Double, longitude: Double) {
        let phi = latitude * Geodesy.degrees
        let lambda = longitude * Geodesy.degrees
        self.init(latitude: latitude, longitude: longitude, sinLat: sin(phi), cosLat: cos(phi), sinLon: sin(lambda), cosLon: cos(lambda))
    }

    /// The point, with the sines and cosines of its latitude and longitude already known.
    @inline(__always)
    package init(latitude: Double, longitude: Double, sinLat: Double, cosLat: Double, sinLon: Double, cosLon: Double) {
        self.latitude = latitude
        self.longitude = longitude
        let n = Geodesy.semiMajorAxis / (1 - Geodesy.eccentricitySquared * sinLat * sinLat).squareRoot()
        x = n * cosLat * cosLon
        y = n * cosLat * sinLon
        z = n * (1 - Geodesy.eccentricitySquared) * sinLat
    }

    /// The squared straight-line (chord) distance to another point, in m².
    @inline(__always)
    public func squaredChord(to other: EarthPoint) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return dx * dx + dy * dy + dz * dz
    }

    /// The geodesic distance to another point, in metres.
    public func distance(to other: EarthPoint) -> Double {
        Geodesy.distance(fromLatitude: latitude, longitude: longitude, toLatitude: other.latitude, longitude: other.longitude)
    }
}
