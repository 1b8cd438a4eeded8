/// What the receiver says about its sky beside the fixes: how many
/// satellites it uses and sees, and the dilutions of precision of the
/// solution. gpsd sends it as SKY; an NMEA receiver as GSA (used, DOPs) and
/// GSV (in view). Not a position: every reader may see it (docs/protocol.md
/// § Read tiers).
///
/// Unknown values are `nil`. A DOP is kept only when it is a positive
/// number below 99.99, the value receivers put in the field when they
/// have none.
public struct SkyView: Sendable, Hashable {
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

    /// A view from what the source reported; counts below 0 and DOPs outside
    /// (0, 99.99) are taken as not reported.
    public init(
        satellitesUsed: Int? = nil, satellitesVisible: Int? = nil, hdop: Double? = nil, pdop: Double? = nil,
        vdop: Double? = nil
    ) {
        self.satellitesUsed = satellitesUsed.flatMap { $0 >= 0 ? $0 : nil }
        self.satellitesVisible = satellitesVisible.flatMap { $0 >= 0 ? $0 : nil }
        self.hdop = Self.dop(hdop)
        self.pdop = Self.dop(pdop)
        self.vdop = Self.dop(vdop)
    }

    /// True when the view says nothing at all.
    public var isEmpty: Bool {
        satellitesUsed == nil && satellitesVisible == nil && hdop == nil && pdop == nil && vdop == nil
    }

    /// `value` when it is a usable DOP, else `nil`.
    static func dop(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value > 0, value < 99.99 else { return nil }
        return value
    }
}

extension SkyView {
    /// `used`, `seen`, `hdop`, `pdop`, `vdop`, each when known.
    var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let satellitesUsed { members.append(("used", .number(Double(satellitesUsed)))) }
        if let satellitesVisible { members.append(("seen", .number(Double(satellitesVisible)))) }
        for (key, value) in [("hdop", hdop), ("pdop", pdop), ("vdop", vdop)] {
            if let value { members.append((key, .number(value))) }
        }
        return members
    }

    /// Reads what `jsonMembers` writes (other members are ignored).
    init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "sky")
        do throws(FieldReader.FieldError) {
            self.init(
                satellitesUsed: try f.optionalInt("used"), satellitesVisible: try f.optionalInt("seen"),
                hdop: try f.optionalNumber("hdop"), pdop: try f.optionalNumber("pdop"), vdop: try f.optionalNumber("vdop"))
        } catch {
            throw error.decodeError
        }
    }
}
