import LocationProtocol

/// One client's settings from its `[client.NAME]` config section (docs/design.md §2).
public struct ClientSettings: Sendable, Hashable {
    /// The longest client name, in bytes.
    public static let maximumNameBytes = 64

    /// Whether `name` is a client name: 1 to 64 letters, digits, `-` or `_`.
    public static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumNameBytes && name.unicodeScalars.allSatisfy(isNameCharacter)
    }

    /// A letter, digit, `-` or `_`: what a client name is made of.
    public static func isNameCharacter(_ s: Unicode.Scalar) -> Bool {
        (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_" || s == "-"
    }

    /// The section name: `[client.NAME]`.
    public var name: String
    /// The coordinate log, relative to `log_dir` unless absolute; `nil` for no log.
    public var log: String?
    /// The raw capture of each receiver feeding the client (`raw_log`), relative to `log_dir`
    /// unless absolute, with `%r` for the receiver; `nil` for none.
    public var rawLog: String?
    /// Seconds between heartbeat records while nothing is logged (`heartbeat`); nil: none.
    public var heartbeat: Double?
    /// When the client's files are cut (`split`); nil: never (one file).
    public var split: LogSplit?
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
        split: LogSplit? = nil,
        rawLog: String? = nil,
        heartbeat: Double? = nil,
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
        self.split = split
        self.rawLog = rawLog
        self.heartbeat = heartbeat
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
