/// The GeoClue2-compatible face on D-Bus (`[geoclue]`, docs/geoclue.md): where it
/// serves `org.freedesktop.GeoClue2`, and what an app that no `[client.NAME]`
/// names (`geoclue_id`) gets when it first asks.
public struct GeoClueSettings: Sendable, Hashable {
    /// The section's keys (ConfigKeyTable.swift declares them).
    public static let keys = ConfigReader.geoclueRows.map(\.key.name)

    /// Which bus: the system bus, or a D-Bus address (`unix:path=…`).
    public enum Bus: Sendable, Hashable, CustomStringConvertible {
        /// The system bus (the default).
        case system
        /// A bus of one's own, by its D-Bus address.
        case address(String)

        /// `system`, or the address.
        public var description: String {
            switch self {
            case .system: "system"
            case .address(let address): address
            }
        }
    }

    /// Where the face owns the name.
    public var bus: Bus
    /// Apps one uid may have as clients of their own at most (`max_apps`).
    public var maximumApps: Int
    /// Whether an app nobody configured becomes a client that asks (`true`, `new_apps = ask`) or is refused.
    public var newAppsAsk: Bool
    /// Whether a new app's client starts with full accuracy (`precise`).
    public var precise: Bool
    /// The prompt's text for a new app; `%s` is replaced by its desktop id (`usage`).
    public var usage: String

    /// The defaults of an empty `[geoclue]` section.
    public init(
        bus: Bus = .system, maximumApps: Int = 64, newAppsAsk: Bool = true, precise: Bool = true,
        usage: String = "The app %s asks for your location over GeoClue."
    ) {
        self.bus = bus
        self.maximumApps = maximumApps
        self.newAppsAsk = newAppsAsk
        self.precise = precise
        self.usage = usage
    }
}

extension ConfigReader {
    /// `[geoclue]`: present turns the face on.
    mutating func readGeoClue(_ section: INIParser.Section) -> GeoClueSettings {
        var settings = GeoClueSettings()
        read(section, Self.geoclueRows, into: &settings)
        return settings
    }
}
