/// The receiver's fix quality, as gpsd's TPV `mode`.
public enum FixMode: Int, Sendable, Hashable, CustomStringConvertible {
    /// Nothing known yet (gpsd mode 0).
    case unknown = 0
    /// The receiver says it has no fix (gpsd mode 1).
    case noFix = 1
    /// A two-dimensional fix: latitude and longitude, no trustworthy altitude.
    case twoD = 2
    /// A three-dimensional fix.
    case threeD = 3

    /// `no fix`, `2D`, `3D`, as people read it.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }
}

/// One receiver epoch: where the receiver is, when, and how sure it is.
///
/// Unknown values are `nil`, never NaN. `latitude`/`longitude` are meaningful
/// only when `mode` is `.twoD` or `.threeD`; otherwise they may be NaN.
/// A value no receiver can mean (a course outside 0…360°, a negative speed or
/// error estimate, more than 255 satellites, anything not finite) is unknown
/// too: `init` makes it `nil`, whichever source sent it, so it is never logged.
public struct Fix: Sendable, Hashable {
    /// UTC seconds since 1970-01-01T00:00:00Z, from the receiver; `nil` if the receiver gave none.
    public var time: Double?
    /// Fix quality.
    public var mode: FixMode
    /// Degrees north, WGS-84.
    public var latitude: Double
    /// Degrees east, WGS-84, in -180...180.
    public var longitude: Double
    /// Metres above mean sea level, when known.
    public var altitude: Double?
    /// Horizontal error estimate in metres (gpsd `eph`), when known.
    public var horizontalError: Double?
    /// Vertical error estimate in metres (gpsd `epv`), when known.
    public var verticalError: Double?
    /// Speed over ground in m/s, when known.
    public var speed: Double?
    /// Course over ground in degrees true, when known.
    public var course: Double?
    /// Satellites used in the solution, when known.
    public var satellitesUsed: Int?
    /// The receiver it came from: gpsd's TPV `device`, or an NMEA source's device path; `nil` when
    /// the source names none (an old log record, a source with one unnamed receiver).
    public var device: String?

    /// A fix with every optional field unknown unless given.
    public init(
        time: Double?,
        mode: FixMode,
        latitude: Double,
        longitude: Double,
        altitude: Double? = nil,
        horizontalError: Double? = nil,
        verticalError: Double? = nil,
        speed: Double? = nil,
        course: Double? = nil,
        satellitesUsed: Int? = nil,
        device: String? = nil
    ) {
        self.time = time
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
        // Not finite is unknown (gpsd's NaN for a value it has not got). A finite value out of
        // its domain is kept as sent, so `isUsable` rejects the fix rather than log it with an
        // "unknown" estimate that would then pass every accuracy gate (#8).
        self.altitude = Self.finite(altitude)
        self.horizontalError = Self.finite(horizontalError)
        self.verticalError = Self.finite(verticalError)
        self.speed = Self.finite(speed)
        // 360° is north as 0° is.
        self.course = Self.finite(course).map { $0 == 360 ? 0 : $0 }
        self.satellitesUsed = satellitesUsed.flatMap { (0...255).contains($0) ? $0 : nil }
        self.device = device
    }

    /// `value` when it is finite, else unknown.
    private static func finite(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite ? $0 : nil }
    }

    /// True when this fix can be delivered at all (docs/authorization.md §4, step 4, less the
    /// per-client "not the same epoch again" check): a 2D or 3D fix with a
    /// time, finite coordinates in range and every value in its domain.
    public var isUsable: Bool {
        guard mode == .twoD || mode == .threeD, let time, time.isFinite else { return false }
        guard latitude.isFinite && longitude.isFinite
            && latitude >= -90 && latitude <= 90
            && longitude >= -180 && longitude <= 180
        else { return false }
        // Values in their domain (docs/authorization.md §4, step 4): an estimate is a positive distance, a speed is
        // not negative, a course is in [0, 360). A value out of it is a broken fix, not an unknown one.
        if let e = horizontalError, !(e > 0 && e.isFinite) { return false }
        if let e = verticalError, !(e > 0 && e.isFinite) { return false }
        if let s = speed, !(s >= 0 && s.isFinite) { return false }
        if let c = course, !(c >= 0 && c < 360) { return false }
        return true
    }
}
