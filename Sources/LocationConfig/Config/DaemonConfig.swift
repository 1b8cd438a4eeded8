/// The daemon's configuration: `/etc/locationd/locationd.conf` (docs/design.md §5,
/// locationd.conf(5)) as a value. Pure: text and environment in, value out.
public struct DaemonConfig: Sendable, Hashable {
    /// Where the daemon looks when no `--config` is given.
    public static let defaultPath = "/etc/locationd/locationd.conf"
    /// `state_dir` when neither the file nor `$STATE_DIRECTORY` sets it.
    public static let defaultStateDirectory = "/var/lib/locationd"
    /// `log_dir` when neither the file nor `$LOGS_DIRECTORY` sets it.
    public static let defaultLogDirectory = "/var/log/locationd"
    /// `socket` when neither the file nor `$RUNTIME_DIRECTORY` sets it.
    public static let defaultSocket = "/run/locationd/control.sock"
    /// The control socket's file name inside `$RUNTIME_DIRECTORY`.
    public static let socketName = "control.sock"
    /// `socket_group` when the file does not set it.
    public static let defaultSocketGroup = "locationd"
    /// `socket_mode` when the file does not set it: every local user may
    /// connect, and the peer's role decides what it may do (docs/protocol.md, "Roles").
    public static let defaultSocketMode: UInt32 = 0o666
    /// The state file's name inside `state_dir`.
    public static let stateFileName = "state.json"
    /// The audit log's name inside `log_dir`.
    public static let auditLogName = "audit.jsonl"
    /// The longest control socket path `sockaddr_un` holds.
    public static let maximumSocketPathLength = 107

    /// The file this configuration was read from, for messages.
    public var file: String
    /// The control socket's path (`[daemon] socket`).
    public var socket: String
    /// Members of this group may change state (`[daemon] socket_group`); `nil`: only root.
    public var socketGroup: String?
    /// The control socket file's mode (`[daemon] socket_mode`).
    public var socketMode: UInt32 = DaemonConfig.defaultSocketMode
    /// Days the access report keeps (`[daemon] report_days`).
    public var reportDays = 7
    /// Where `state.json` lives (`[daemon] state_dir`).
    public var stateDirectory: String
    /// Where relative client logs and the audit log live (`[daemon] log_dir`).
    public var logDirectory: String
    /// The Location Services switch at first start (`[daemon] services`).
    public var services: Bool
    /// When logs reach stable storage (`[daemon] fsync`).
    public var fsync: FsyncPolicy
    /// Where fixes come from: `[source]` (named `default`) first, then each `[source.NAME]` in file
    /// order; never empty, no endpoint twice.
    public var sources: [NamedSource]
    /// Seconds without a usable fix from the followed receiver before another is chosen (`[source] failover`).
    public var failover: Double
    /// The clients, in file order (`[client.NAME]`).
    public var clients: [ClientSettings]
    /// Clients an administrator has locked, in file order (`[policy] restricted`).
    public var restricted: [String]
    /// The GeoClue2-compatible face on D-Bus (`[geoclue]`); `nil`: off.
    public var geoclue: GeoClueSettings?

    /// A configuration from its parts; the defaults are those of an empty file and empty environment.
    public init(
        file: String = DaemonConfig.defaultPath,
        socket: String = DaemonConfig.defaultSocket,
        socketGroup: String? = DaemonConfig.defaultSocketGroup,
        stateDirectory: String = DaemonConfig.defaultStateDirectory,
        logDirectory: String = DaemonConfig.defaultLogDirectory,
        services: Bool = true,
        fsync: FsyncPolicy = .always,
        source: SourceConfig = .defaultGPSD,
        sources: [NamedSource]? = nil,
        failover: Double = 3,
        clients: [ClientSettings] = [],
        restricted: [String] = []
    ) {
        self.file = file
        self.socket = socket
        self.socketGroup = socketGroup
        self.stateDirectory = stateDirectory
        self.logDirectory = logDirectory
        self.services = services
        self.fsync = fsync
        self.sources = sources ?? [NamedSource(source)]
        self.failover = failover
        self.clients = clients
        self.restricted = restricted
    }

    /// Parses the text of a configuration file named `file`. `environment`
    /// supplies systemd's `STATE_DIRECTORY`, `LOGS_DIRECTORY` and
    /// `RUNTIME_DIRECTORY` (the first entry of a colon-separated list) as
    /// defaults for paths the file does not set. Throws every problem found.
    public static func parse(
        _ text: String, file: String, environment: [String: String] = [:]
    ) throws(ConfigErrors) -> DaemonConfig {
        try parse(ConfigFragments([.init(path: file, text: text)]), environment: environment)
    }

    /// Parses a main file and its drop-ins (`ConfigFragments`): a key a later
    /// file sets overrides. `file` is the main file's path.
    public static func parse(
        _ fragments: ConfigFragments, environment: [String: String] = [:]
    ) throws(ConfigErrors) -> DaemonConfig {
        let file = fragments.files.first?.path ?? defaultPath
        var reader = ConfigReader(file: file, environment: environment)
        let document = fragments.merged(homeSection: ConfigReader.home(of:))
        reader.errors = document.errors
        let config = reader.read(document.sections)
        guard reader.errors.isEmpty else {
            throw ConfigErrors(reader.errors.map(fragments.located).sorted { fragments.order($0) < fragments.order($1) })
        }
        return config
    }

    /// The first source's endpoint (`[source]` when there is one); setting it makes it the one source.
    public var source: SourceConfig {
        get { sources.first?.endpoint ?? .defaultGPSD }
        set { sources = [NamedSource(newValue)] }
    }

    /// `[policy] restricted in /etc/locationd/locationd.conf`: named in `restricted` errors.
    public var policySource: String { "[policy] restricted in \(file)" }

    /// What the authorization engine needs.
    public var engineSettings: EngineSettings {
        EngineSettings(
            clients: clients, services: services, restricted: Set(restricted), policySource: policySource,
            failover: failover)
    }

    /// `state_dir/state.json`.
    public var statePath: String { Self.join(stateDirectory, Self.stateFileName) }

    /// `log_dir/audit.jsonl`.
    public var auditLogPath: String { Self.join(logDirectory, Self.auditLogName) }

    /// The client with this name, if configured.
    public func client(named name: String) -> ClientSettings? {
        clients.first { $0.name == name }
    }

    /// The absolute path of a client's log, or `nil` if it has none or is
    /// not configured. A relative `log` is resolved against `log_dir`, or
    /// against `logDirectory` when given (replay's `--log-dir`), which then
    /// also takes the file name of an absolute `log`.
    public func logPath(forClient name: String, logDirectory override: String? = nil) -> String? {
        guard let log = client(named: name)?.log else { return nil }
        if let override {
            let fileName = log.split(separator: "/").last.map(String.init) ?? log
            return Self.join(override, log.hasPrefix("/") ? fileName : log)
        }
        return log.hasPrefix("/") ? log : Self.join(logDirectory, log)
    }

    /// A client's log as a pattern (`LogFilePattern`) with its `split`, resolved as `logPath`
    /// resolves the path (a `%` in the directory is no field); nil if it has no log.
    public func logPattern(forClient name: String, logDirectory override: String? = nil) -> LogFilePattern? {
        guard let client = client(named: name), let log = client.log else { return nil }
        return pattern(log, split: client.split, logDirectory: override)
    }

    /// A client's `raw_log` as a pattern with its `split`, resolved as its log is; nil if none.
    public func rawLogPattern(forClient name: String, logDirectory override: String? = nil) -> LogFilePattern? {
        guard let client = client(named: name), let raw = client.rawLog else { return nil }
        return pattern(raw, split: client.split, logDirectory: override)
    }

    private func pattern(_ file: String, split: LogSplit?, logDirectory override: String?) -> LogFilePattern {
        let directory = (override ?? logDirectory).reduce(into: "") { out, c in out += c == "%" ? "%%" : String(c) }
        let relative = override != nil && file.hasPrefix("/") ? (file.split(separator: "/").last.map(String.init) ?? file) : file
        return LogFilePattern(relative.hasPrefix("/") ? relative : Self.join(directory, relative), split: split)
    }

    /// `directory/name`, without doubling a slash.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The effective configuration as INI text: every key with its value,
    /// including defaults, written by the key tables (ConfigKeyTable.swift);
    /// it parses back to this configuration (same `file`). An empty value means "none".
    public var rendered: String {
        var out = "# locationd effective configuration, read from \(file)\n"
        func section(_ name: String, _ lines: [(key: String, value: String)]) {
            out += "\n[\(name)]\n"
            for (key, value) in lines {
                let quoted = INIParser.quote(value)
                out += quoted.isEmpty ? "\(key) =\n" : "\(key) = \(quoted)\n"
            }
        }
        section("daemon", ConfigReader.lines(ConfigReader.daemonRows, self))
        // `[source]` holds `failover`; alone beside `[source.NAME]` sections it is no source itself.
        if !sources.contains(where: { $0.name == NamedSource.defaultName }) {
            section("source", ConfigReader.lines(ConfigReader.sourceRows, SourceDraft(rendering: nil, failover: failover)))
        }
        for source in sources {
            let plain = source.name == NamedSource.defaultName
            let draft = SourceDraft(rendering: source, failover: plain ? failover : nil)
            section(source.section, ConfigReader.lines(plain ? ConfigReader.sourceRows : ConfigReader.namedSourceRows, draft))
        }
        for client in clients {
            section("client.\(client.name)", ConfigReader.lines(ConfigReader.clientRows, client))
        }
        if let geoclue { section("geoclue", ConfigReader.lines(ConfigReader.geoclueRows, geoclue)) }
        section("policy", ConfigReader.lines(ConfigReader.policyRows, Restriction(names: restricted)))
        return out
    }

    /// A number as the config file writes it: `5`, `2.5`.
    static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
