import LocationValues

/// What the sentences of one receiver epoch said, merged: the last sentence
/// that gives a value wins, as in gpsd's merge. Plain values only, so that
/// starting a new epoch allocates nothing.
struct NMEAEpoch: Sendable {
    /// Why the receiver itself marks this epoch as having no fix.
    struct Invalidity: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        /// RMC status not `A`/`D`, or its FAA mode `N`.
        static let rmcVoid = Invalidity(rawValue: 1 << 0)
        /// GGA quality 0, empty, or not a measured fix (7 manual, 8 simulator).
        static let ggaNoFix = Invalidity(rawValue: 1 << 1)
        /// GSA navigation mode 1 (no fix).
        static let gsaNoFix = Invalidity(rawValue: 1 << 2)
        /// GLL status `V`/empty, or its FAA mode `N`.
        static let gllVoid = Invalidity(rawValue: 1 << 3)
        /// GNS mode indicators all `N` (or none).
        static let gnsNoFix = Invalidity(rawValue: 1 << 4)
        /// A value out of its domain that the fix cannot do without: an HDOP of 0 or less, or a
        /// hemisphere letter other than N/S/E/W (rejected, never logged as "accuracy unknown").
        static let outOfDomain = Invalidity(rawValue: 1 << 5)
    }

    /// Nanoseconds since midnight UTC, from the first timed sentence.
    var timeOfDay: Int64?
    /// A date seen in this epoch (RMC with a valid fix, or ZDA), with the time
    /// of day it goes with.
    var dateReference: NMEADateReference?
    /// The date came from ZDA, whose four-digit year wins over RMC's two digits.
    var dateFromZDA = false
    var latitude = Double.nan
    var longitude = Double.nan
    var hasPosition = false
    var invalidity: Invalidity = []
    /// Highest GSA mode seen (2 or 3), 0 if none.
    var gsaMode = 0
    var gsaSatellites = 0
    var ggaSeen = false
    var ggaSatellites: Int?
    var ggaAltitude: Double?
    var gnsSeen = false
    var gnsSatellites: Int?
    var gnsAltitude: Double?
    /// Whether the last sentence giving a fix status said differential.
    var differential = false
    var speed: Double?
    var course: Double?
    /// Sentences merged.
    var sentences = 0
    /// The receiver's own error estimates for the epoch (SiRF's `$PSRFEPE`: EHPE and EVPE, metres),
    /// which gpsd takes instead of its DOP model.
    var estimatedHorizontalError: Double?
    var estimatedVerticalError: Double?
    /// The DOPs as they stood when the epoch's first position arrived (that sentence's own HDOP
    /// included): gpsd computes an epoch's error estimates there (docs/nmea.md §6).
    var dopsAtFirstPosition: (hdop: Double?, vdop: Double?)?

    /// Sets the position if the four fields are all present and parse.
    mutating func setPosition(_ fields: NMEAFields, at k: Int) -> Bool {
        guard let position = NMEAEpoch.position(fields, at: k) else { return false }
        latitude = position.latitude
        longitude = position.longitude
        hasPosition = true
        return true
    }

    /// `lat, N/S, lon, E/W` starting at field `k`; `nil` when a field is empty
    /// or malformed, a hemisphere letter is not N/S (E/W), or the position is
    /// out of range. (gpsd takes any letter but `S`/`W` as north/east; a
    /// garbled letter is a garbled position, so it is not used.)
    static func position(_ fields: NMEAFields, at k: Int) -> (latitude: Double, longitude: Double)? {
        let latField = fields[k], ns = fields[k + 1], lonField = fields[k + 2], ew = fields[k + 3]
        guard !latField.isEmpty, ns.count == 1, !lonField.isEmpty, ew.count == 1,
              ns.first == UInt8(ascii: "N") || ns.first == UInt8(ascii: "S"),
              ew.first == UInt8(ascii: "E") || ew.first == UInt8(ascii: "W"),
              var lat = latField.degreesMinutes(), var lon = lonField.degreesMinutes() else { return nil }
        if ns.first == UInt8(ascii: "S") { lat = -lat }
        if ew.first == UInt8(ascii: "W") { lon = -lon }
        guard lat >= -90, lat <= 90, lon >= -180, lon <= 180 else { return nil }
        return (lat, lon)
    }

    /// The fix mode: the receiver's own GSA mode when it sent one; otherwise
    /// inferred as gpsd does from GGA/GNS: an altitude and at least four
    /// satellites is 3D, fewer than three satellites is no fix, else 2D (the
    /// larger count wins when both came, GNS counting every constellation).
    /// RMC or GLL alone is 2D.
    var mode: FixMode {
        guard invalidity.isEmpty, hasPosition else { return .noFix }
        if gsaMode == 3 { return .threeD }
        if gsaMode == 2 { return .twoD }
        guard ggaSeen || gnsSeen else { return .twoD }
        let satellites = satellitesUsed
        if let satellites, satellites < 3 { return .noFix }
        return altitude != nil && (satellites ?? 0) >= 4 ? .threeD : .twoD
    }

    /// Satellites used: the PRNs listed in the epoch's GSA sentences, summed
    /// over them (one per constellation); without a GSA, from GGA or GNS (the larger).
    var satellitesUsed: Int? {
        if gsaSatellites > 0 { return gsaSatellites }
        return switch (ggaSatellites, gnsSatellites) {
        case let (gga?, gns?): max(gga, gns)
        case let (gga?, nil): gga
        case let (nil, gns?): gns
        case (nil, nil): nil
        }
    }

    /// Altitude above mean sea level, from GGA or else GNS.
    var altitude: Double? { ggaAltitude ?? gnsAltitude }
}
