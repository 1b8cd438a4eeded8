/// Core Location's `desiredAccuracy`: fixes with a larger horizontal error estimate are not delivered.
public enum DesiredAccuracy: Sendable, Hashable, CustomStringConvertible {
    /// `kCLLocationAccuracyBestForNavigation`: no accuracy gate.
    case bestForNavigation
    /// `kCLLocationAccuracyBest`: no accuracy gate.
    case best
    /// `kCLLocationAccuracyNearestTenMeters`: 10 m.
    case tenMeters
    /// `kCLLocationAccuracyHundredMeters`: 100 m.
    case hundredMeters
    /// `kCLLocationAccuracyKilometer`: 1000 m.
    case kilometer
    /// `kCLLocationAccuracyThreeKilometers`: 3000 m.
    case threeKilometers
    /// A number of metres.
    case meters(Double)
    /// `kCLLocationAccuracyReduced`: the app wants no more than the reduced position, whatever
    /// accuracy the person allowed (docs/authorization.md §6); no gate on the estimate.
    case reduced

    /// The largest horizontal error estimate that passes, or `nil` for no gate.
    public var limit: Double? {
        switch self {
        case .bestForNavigation, .best, .reduced: nil
        case .tenMeters: 10
        case .hundredMeters: 100
        case .kilometer: 1000
        case .threeKilometers: 3000
        case .meters(let m): m
        }
    }

    /// The config-file word (`kilometer`, `best`, or the number of metres).
    public var description: String {
        switch self {
        case .bestForNavigation: "best-for-navigation"
        case .best: "best"
        case .tenMeters: "ten-meters"
        case .hundredMeters: "hundred-meters"
        case .kilometer: "kilometer"
        case .threeKilometers: "three-kilometers"
        case .reduced: "reduced"
        case .meters(let m): m == m.rounded() && abs(m) < 1e15 ? String(Int64(m)) : String(m)
        }
    }

    /// The accepted config words, for error messages.
    public static let words = [
        "best-for-navigation", "best", "ten-meters", "hundred-meters", "kilometer", "three-kilometers", "reduced",
    ]

    /// Parses a config word or a non-negative number of metres.
    public init?(word: String) {
        switch word {
        case "best-for-navigation": self = .bestForNavigation
        case "best": self = .best
        case "ten-meters": self = .tenMeters
        case "hundred-meters": self = .hundredMeters
        case "kilometer": self = .kilometer
        case "three-kilometers": self = .threeKilometers
        case "reduced": self = .reduced
        default:
            guard let m = Double(word), m.isFinite, m >= 0 else { return nil }
            self = .meters(m)
        }
    }
}

/// Core Location's `CLAuthorizationStatus`, with the words the CLI uses.
public enum AuthorizationStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `notDetermined`: never delivers; a request opens a prompt.
    case ask
    /// `restricted`: set only by administrator policy.
    case restricted
    /// `denied`.
    case never
    /// `authorizedAlways`.
    case always
    /// `authorizedWhenInUse`.
    case whileUsing = "while-using"

    /// The raw value of the matching `CLAuthorizationStatus` case.
    public var coreLocationValue: Int {
        switch self {
        case .ask: 0
        case .restricted: 1
        case .never: 2
        case .always: 3
        case .whileUsing: 4
        }
    }

    /// The CLI word.
    public var description: String { rawValue }
}

/// One client's settings from its `[client.NAME]` config section (docs/design.md §2).
public struct ClientSettings: Sendable, Hashable {
    /// The section name: `[client.NAME]`.
    public var name: String
    /// The coordinate log, relative to `log_dir` unless absolute; `nil` for no log.
    public var log: String?
    /// Metres from the last delivered fix before the next is delivered; `nil` is `none`.
    public var distanceFilter: Double?
    /// Fixes with a larger horizontal error estimate are not delivered.
    public var desiredAccuracy: DesiredAccuracy
    /// Text for a while-using prompt; without it the client cannot request authorization.
    public var usage: String?
    /// Text for an always prompt; needed to request always.
    public var usageAlways: String?
    /// `true`: full accuracy by default; `false`: reduced accuracy by default.
    public var precise: Bool
    /// Purpose strings for temporary full accuracy, by key.
    public var purposes: [String: String]
    /// The status the client starts with the very first time (never `.restricted`).
    public var authorization: AuthorizationStatus
    /// Whether updates are started when the daemon starts.
    public var updating: Bool
    /// Whether the client starts in use (foreground).
    public var inUse: Bool
    /// Seconds out of use before Allow Once and temporary full accuracy end.
    public var onceGrace: Double
    /// Side of the reduced-accuracy grid in metres (at least 200).
    public var reducedGrid: Double
    /// Seconds between reduced-accuracy deliveries.
    public var reducedInterval: Double
    /// Seconds before a `locate` gives up with `location-unknown`.
    public var locateTimeout: Double
    /// The programs the client serves (gpsd protocol, NMEA) and who may connect.
    public var programs: ProgramSettings
    /// Where the log's records are published over MQTT; `nil`: nowhere (the engine never reads it).
    public var mqtt: MQTTSettings?
    /// Who the client's app is (`app_users`, `app_groups`, `app_units`).
    public var app: AppSettings
    /// The receiver this client follows (`receiver = DEVICE`, a gpsd device path or an NMEA source's
    /// path); `nil` for `best`, the one chosen for every such client (docs/sources.md).
    public var receiver: String?
    /// The GeoClue app this client is (`geoclue_id = DESKTOP-ID`, docs/geoclue.md); `nil`: none.
    public var geoclueId: String?

    /// A client with locationd.conf(5)'s defaults for everything not given.
    public init(
        name: String,
        log: String? = nil,
        distanceFilter: Double? = nil,
        desiredAccuracy: DesiredAccuracy = .best,
        usage: String? = nil,
        usageAlways: String? = nil,
        precise: Bool = true,
        purposes: [String: String] = [:],
        authorization: AuthorizationStatus = .ask,
        updating: Bool = false,
        inUse: Bool = false,
        onceGrace: Double = 60,
        reducedGrid: Double = 2000,
        reducedInterval: Double = 900,
        locateTimeout: Double = 30,
        programs: ProgramSettings = ProgramSettings(),
        mqtt: MQTTSettings? = nil,
        app: AppSettings = AppSettings(),
        receiver: String? = nil,
        geoclueId: String? = nil
    ) {
        self.name = name
        self.log = log
        self.distanceFilter = distanceFilter
        self.desiredAccuracy = desiredAccuracy
        self.usage = usage
        self.usageAlways = usageAlways
        self.precise = precise
        self.purposes = purposes
        self.authorization = authorization
        self.updating = updating
        self.inUse = inUse
        self.onceGrace = onceGrace
        self.reducedGrid = reducedGrid
        self.reducedInterval = reducedInterval
        self.locateTimeout = locateTimeout
        self.programs = programs
        self.mqtt = mqtt
        self.app = app
        self.receiver = receiver
        self.geoclueId = geoclueId
    }
}

/// Everything the authorization engine needs from the configuration.
public struct EngineSettings: Sendable, Hashable {
    /// The configured clients, in config-file order.
    public var clients: [ClientSettings]
    /// The Location Services switch at first start (no saved state yet).
    public var services: Bool
    /// Client names an administrator has locked (`[policy] restricted`).
    public var restricted: Set<String>
    /// Where the restriction comes from, for error messages (e.g. `[policy] restricted in /etc/locationd/locationd.conf`).
    public var policySource: String

    /// Seconds without a usable fix from the receiver `best` clients follow before another is chosen (`[source] failover`).
    public var failover: Double

    /// Settings from their parts.
    public init(
        clients: [ClientSettings], services: Bool = true, restricted: Set<String> = [],
        policySource: String = "[policy] restricted", failover: Double = 3
    ) {
        self.failover = failover
        self.clients = clients
        self.services = services
        self.restricted = restricted
        self.policySource = policySource
    }
}
