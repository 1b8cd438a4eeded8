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
        self.latitude = latitude
        self.longitude = longitude
        let phi = latitude * Geodesy.degrees
        let lambda = longitude * Geodesy.degrees
        let sinPhi = sin(phi), cosPhi = cos(phi)
        let n = Geodesy.semiMajorAxis / (1 - Geodesy.eccentricitySquared * sinPhi * sinPhi).squareRoot()
        x = n * cosPhi * cos(lambda)
        y = n * cosPhi * sin(lambda)
        z = n * (1 - Geodesy.eccentricitySquared) * sinPhi
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
