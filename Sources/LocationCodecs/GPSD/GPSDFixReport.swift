import LocationValues

/// One TPV report. Unknown values are `nil`.
public struct GPSDFixReport: Sendable, Hashable {
    public var time: Time?
    public var mode: FixMode
    public var latitude: Double?
    public var longitude: Double?
    public var altitudeMSL: Double?
    public var altitudeHAE: Double?
    public var geoidSeparation: Double?
    public var eph: Double?
    public var epv: Double?
    public var epx: Double?
    public var epy: Double?
    public var speed: Double?
    public var track: Double?
    /// The receiver gpsd read it from (TPV `device`, its path); `nil` when the TPV names none.
    public var device: String?

    /// A report from its values.
    public init(
        time: Time?, mode: FixMode, latitude: Double? = nil, longitude: Double? = nil,
        altitudeMSL: Double? = nil, altitudeHAE: Double? = nil, geoidSeparation: Double? = nil,
        eph: Double? = nil, epv: Double? = nil, epx: Double? = nil, epy: Double? = nil,
        speed: Double? = nil, track: Double? = nil, device: String? = nil
    ) {
        self.time = time
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMSL = altitudeMSL
        self.altitudeHAE = altitudeHAE
        self.geoidSeparation = geoidSeparation
        self.eph = eph
        self.epv = epv
        self.epx = epx
        self.epy = epy
        self.speed = speed
        self.track = track
        self.device = device
    }

    /// Which values are known, for comparing how complete two reports are.
    public var fields: Fields {
        var set: Fields = []
        if time != nil { set.insert(.time) }
        if latitude != nil && longitude != nil { set.insert(.position) }
        if altitudeMSL != nil { set.insert(.altitudeMSL) }
        if altitudeHAE != nil { set.insert(.altitudeHAE) }
        if geoidSeparation != nil { set.insert(.geoidSeparation) }
        if eph != nil { set.insert(.eph) }
        if epv != nil { set.insert(.epv) }
        if epx != nil && epy != nil { set.insert(.epxy) }
        if speed != nil { set.insert(.speed) }
        if track != nil { set.insert(.track) }
        return set
    }

    /// `newer` laid over `self`: every value `newer` knows wins; values only
    /// `self` knows are kept. gpsd sends an epoch as several TPVs, each
    /// adding what the latest sentence told it.
    public func merged(with newer: GPSDFixReport) -> GPSDFixReport {
        GPSDFixReport(
            time: newer.time ?? time,
            mode: newer.mode,
            latitude: newer.latitude != nil && newer.longitude != nil ? newer.latitude : latitude,
            longitude: newer.latitude != nil && newer.longitude != nil ? newer.longitude : longitude,
            altitudeMSL: newer.altitudeMSL ?? altitudeMSL,
            altitudeHAE: newer.altitudeHAE ?? altitudeHAE,
            geoidSeparation: newer.geoidSeparation ?? geoidSeparation,
            eph: newer.eph ?? eph,
            epv: newer.epv ?? epv,
            epx: newer.epx != nil && newer.epy != nil ? newer.epx : epx,
            epy: newer.epx != nil && newer.epy != nil ? newer.epy : epy,
            speed: newer.speed ?? speed,
            track: newer.track ?? track,
            device: newer.device ?? device
        )
    }

    /// The `Fix` this report describes. Altitude is MSL, derived from the
    /// ellipsoidal height and geoid separation when gpsd gave only those.
    /// The horizontal error is gpsd's `eph` and nothing else: the per-axis
    /// `epx`/`epy` are a different statistic, and the same log read by the
    /// NMEA source must give the same estimate.
    public func fix(satellitesUsed: Int?) -> Fix {
        var altitude = altitudeMSL
        if altitude == nil, let hae = altitudeHAE, let separation = geoidSeparation {
            altitude = hae - separation
        }
        return Fix(
            time: time?.value,
            mode: mode,
            latitude: latitude ?? .nan,
            longitude: longitude ?? .nan,
            altitude: altitude,
            // gpsd writes eph/epv 0 for a receiver's DOP 0.00 ("not computed"): unknown, not a broken fix (#29).
            horizontalError: eph == 0 ? nil : eph,
            verticalError: epv == 0 ? nil : epv,
            speed: speed,
            course: track,
            satellitesUsed: satellitesUsed,
            device: device
        )
    }

    /// A receiver time exactly as gpsd sent it; two TPVs belong to one epoch
    /// when these are equal.
    public struct Time: Sendable, Hashable, Comparable {
        /// UTC seconds since 1970.
        public var seconds: Int64
        /// Nanoseconds, 0..<1_000_000_000.
        public var nanoseconds: Int32

        /// Seconds since 1970 as a `Double` (what `Fix.time` holds).
        public var value: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

        /// A time from its parts.
        public init(seconds: Int64, nanoseconds: Int32) {
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }

        public static func < (lhs: Time, rhs: Time) -> Bool {
            (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
        }
    }

    /// The set of values a TPV (or a merged epoch) knows.
    public struct Fields: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let time = Fields(rawValue: 1 << 0)
        public static let position = Fields(rawValue: 1 << 1)
        public static let altitudeMSL = Fields(rawValue: 1 << 2)
        public static let altitudeHAE = Fields(rawValue: 1 << 3)
        public static let geoidSeparation = Fields(rawValue: 1 << 4)
        public static let eph = Fields(rawValue: 1 << 5)
        public static let epv = Fields(rawValue: 1 << 6)
        public static let epxy = Fields(rawValue: 1 << 7)
        public static let speed = Fields(rawValue: 1 << 8)
        public static let track = Fields(rawValue: 1 << 9)
    }
}
