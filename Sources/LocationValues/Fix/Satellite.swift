/// One satellite of a receiver's sky, as gpsd's SKY lists it: its PRN,
/// where it stands (elevation, azimuth), how strong it is heard (SNR) and
/// whether the solution uses it. Satellite geometry narrows a position, so
/// a satellite list goes only where a full-accuracy position may go
/// (docs/protocol.md § Read tiers, § Programs).
///
/// Bounded on the way in: a value a receiver cannot mean is unknown
/// (`nil`), never an error, so garbled input never stops a reader.
public struct Satellite: Sendable, Hashable {
    /// The satellite's number as gpsd numbers it (GPS 1–32, SBAS 33–64 or 120–158,
    /// GLONASS 65–96, QZSS 193–202, Galileo 301–336, BeiDou 401–463, …).
    public var prn: Int
    /// u-blox's constellation id (0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou, 4 IMES, 5 QZSS,
    /// 6 GLONASS, 7 NavIC), when known.
    public var gnssID: Int?
    /// The satellite's number within its constellation, when known.
    public var svID: Int?
    /// Degrees above the horizon (−90…90), when known.
    public var elevation: Double?
    /// Degrees true (0…360, 360 read as 0), when known.
    public var azimuth: Double?
    /// Signal-to-noise ratio in dB-Hz (0…254), when known.
    public var snr: Double?
    /// Whether the receiver's solution uses it.
    public var used: Bool

    /// The largest PRN taken; gpsd's numbering stays well below it.
    public static let maximumPRN = 1023

    /// A satellite from what a source reported, or `nil` without a usable
    /// PRN (missing, 0 or less, above `maximumPRN`: that satellite is
    /// skipped). Values out of their domain are unknown: an elevation outside
    /// −90…90, an azimuth outside 0…360, an SNR below 0 or above 254, a
    /// constellation id outside 0…15, a satellite number outside 1…255
    /// (gpsd's 0, "none", included: then the constellation is unknown too).
    public init?(
        prn: Int?, gnssID: Int? = nil, svID: Int? = nil, elevation: Double?, azimuth: Double?, snr: Double?,
        used: Bool
    ) {
        guard let prn, prn > 0, prn <= Self.maximumPRN else { return nil }
        self.prn = prn
        let sv = svID.flatMap { (1...255).contains($0) ? $0 : nil }
        self.svID = sv
        self.gnssID = sv == nil ? nil : gnssID.flatMap { (0...15).contains($0) ? $0 : nil }
        self.elevation = elevation.flatMap { $0.isFinite && $0 >= -90 && $0 <= 90 ? $0 : nil }
        self.azimuth = azimuth.flatMap { $0.isFinite && $0 >= 0 && $0 <= 360 ? ($0 == 360 ? 0 : $0) : nil }
        self.snr = snr.flatMap { $0.isFinite && $0 >= 0 && $0 <= 254 ? $0 : nil }
        self.used = used
    }
}

extension Satellite {
    /// `{"PRN":…,"gnssid":…,"svid":…,"el":…,"az":…,"ss":…,"used":…}`, gpsd's names, unknown values left out.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("PRN", .number(Double(prn)))]
        if let gnssID, let svID {
            members.append(("gnssid", .number(Double(gnssID))))
            members.append(("svid", .number(Double(svID))))
        }
        for (key, value) in [("el", elevation), ("az", azimuth), ("ss", snr)] {
            if let value { members.append((key, .number(value))) }
        }
        members.append(("used", .bool(used)))
        return .object(members)
    }

    /// Reads what `json` writes; `nil` for an entry without a usable PRN (skipped, as on the way in).
    package init?(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "satellite")
        do throws(FieldReader.FieldError) {
            self.init(
                prn: try f.optionalInt("PRN"), gnssID: try f.optionalInt("gnssid"), svID: try f.optionalInt("svid"),
                elevation: try f.optionalNumber("el"), azimuth: try f.optionalNumber("az"),
                snr: try f.optionalNumber("ss"), used: try f.optionalBool("used") ?? false)
        } catch {
            throw error.decodeError
        }
    }
}
