/// The GeoClue2-compatible face on D-Bus (`[geoclue]`, docs/geoclue.md): where it
/// serves `org.freedesktop.GeoClue2`, and what an app that no `[client.NAME]`
/// names (`geoclue_id`) gets when it first asks.
public struct GeoClueSettings: Sendable, Hashable {
    /// The section's keys.
    public static let keys = ["bus", "max_apps", "new_apps", "precise", "usage"]

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
        for entry in section.entries {
            switch entry.key {
            case "bus":
                if entry.value == "system" {
                    settings.bus = .system
                } else if entry.value.contains(":"), !entry.value.contains(where: { $0 == " " || $0 == "\t" }) {
                    settings.bus = .address(entry.value)
                } else {
                    bad(entry, section, accepted: "system, or a D-Bus address such as unix:path=/run/geoclue-test/bus")
                }
            case "max_apps":
                if let n = value(entry, section, Self.integer, accepted: "a number of apps from 1 to 4096", where: { (1...4096).contains($0) }) {
                    settings.maximumApps = n
                }
            case "new_apps":
                switch entry.value {
                case "ask": settings.newAppsAsk = true
                case "deny": settings.newAppsAsk = false
                default: bad(entry, section, accepted: "ask or deny")
                }
            case "precise":
                switch entry.value.lowercased() {
                case "on", "yes", "true", "1": settings.precise = true
                case "off", "no", "false", "0": settings.precise = false
                default: bad(entry, section, accepted: Self.booleans)
                }
            case "usage":
                if entry.value.isEmpty {
                    bad(entry, section, accepted: "the sentence a new app's prompt shows (%s: its desktop id)")
                } else {
                    settings.usage = entry.value
                }
            default:
                errors.append(.unknownKey(file: file, line: entry.line, section: section.name, key: entry.key, accepted: GeoClueSettings.keys))
            }
        }
        return settings
    }

}
