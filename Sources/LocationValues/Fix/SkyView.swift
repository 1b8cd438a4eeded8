/// What a receiver says about its sky beside the fixes: which receiver
/// (`device`), how many satellites it uses and sees, the dilutions of
/// precision of the solution, and the satellites themselves. gpsd sends it
/// as SKY; an NMEA receiver as GSA (used, DOPs) and GSV (in view, each
/// satellite). The counts and DOPs are no position: every reader may see
/// them; the satellite list narrows a position and goes only where a
/// full-accuracy position may go (docs/protocol.md § Read tiers).
///
/// Unknown values are `nil`. A DOP is kept only when it is a positive
/// number below 99.99, the value receivers put in the field when they
/// have none.
public struct SkyView: Sendable, Hashable {
    /// The receiver it describes, as its fixes name it (`Fix.device`); `nil` when the source names none.
    public var device: String?
    /// The receiver's time of the view (UTC seconds), when it said.
    public var time: Double?
    /// Satellites used in the solution, when known.
    public var satellitesUsed: Int?
    /// Satellites in view (seen, used or not), when known.
    public var satellitesVisible: Int?
    /// Horizontal dilution of precision, when known.
    public var hdop: Double?
    /// Position (3D) dilution of precision, when known.
    public var pdop: Double?
    /// Vertical dilution of precision, when known.
    public var vdop: Double?
    /// The satellites in view, at most `maximumSatellites`, in the order the source listed them.
    public var satellites: [Satellite]

    /// Satellites kept at most (gpsd 3.26 has room for 184 signals); more are left out of the list.
    public static let maximumSatellites = 184

    /// A view from what the source reported; counts below 0 and DOPs outside
    /// (0, 99.99) are taken as not reported, a time that is not finite as none.
    public init(
        satellitesUsed: Int? = nil, satellitesVisible: Int? = nil, hdop: Double? = nil, pdop: Double? = nil,
        vdop: Double? = nil, device: String? = nil, time: Double? = nil, satellites: [Satellite] = []
    ) {
        self.device = device
        self.time = time.flatMap { $0.isFinite ? $0 : nil }
        self.satellitesUsed = satellitesUsed.flatMap { $0 >= 0 ? $0 : nil }
        self.satellitesVisible = satellitesVisible.flatMap { $0 >= 0 ? $0 : nil }
        self.hdop = Self.dop(hdop)
        self.pdop = Self.dop(pdop)
        self.vdop = Self.dop(vdop)
        self.satellites = satellites.count > Self.maximumSatellites ? Array(satellites.prefix(Self.maximumSatellites)) : satellites
    }

    /// True when the view says nothing at all (which receiver it is from aside).
    public var isEmpty: Bool {
        satellitesUsed == nil && satellitesVisible == nil && hdop == nil && pdop == nil && vdop == nil
            && satellites.isEmpty
    }

    /// The same view without its satellite list: what every reader may see.
    public var counts: SkyView {
        var copy = self
        copy.satellites = []
        return copy
    }

    /// `value` when it is a usable DOP, else `nil`.
    package static func dop(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value > 0, value < 99.99 else { return nil }
        return value
    }
}

extension SkyView {
    /// `device`, `time`, `used`, `seen`, `hdop`, `pdop`, `vdop`, `satellites`, each when known
    /// (`satellites` when there are any).
    package var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let device, !device.isEmpty { members.append(("device", .string(device))) }
        if let time, UTCTime.isWritable(time) { members.append(("time", .string(UTCTime.format(time)))) }
        if let satellitesUsed { members.append(("used", .number(Double(satellitesUsed)))) }
        if let satellitesVisible { members.append(("seen", .number(Double(satellitesVisible)))) }
        for (key, value) in [("hdop", hdop), ("pdop", pdop), ("vdop", vdop)] {
            if let value { members.append((key, .number(value))) }
        }
        if !satellites.isEmpty { members.append(("satellites", .array(satellites.map(\.json)))) }
        return members
    }

    /// Reads what `jsonMembers` writes (other members are ignored).
    package init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "sky")
        var satellites: [Satellite] = []
        for item in value["satellites"]?.arrayValue ?? [] {
            if let satellite = try Satellite(json: item) { satellites.append(satellite) }
        }
        do throws(FieldReader.FieldError) {
            self.init(
                satellitesUsed: try f.optionalInt("used"), satellitesVisible: try f.optionalInt("seen"),
                hdop: try f.optionalNumber("hdop"), pdop: try f.optionalNumber("pdop"), vdop: try f.optionalNumber("vdop"),
                device: try f.optionalString("device"), time: try f.optionalTime("time"),
                satellites: satellites)
        } catch {
            throw error.decodeError
        }
    }
}
