import LocationProtocol

/// The key tables: every key of locationd.conf, one row each, section by section, in the order
/// `DaemonConfig.rendered` writes them (`ConfigKey` says what a row declares). A new key is one row
/// here, a paragraph in locationd.conf(5) and a line in config/locationd.conf; ConfigKeyTableTests
/// fails until all three are there and check-config's output reads back to it.
extension ConfigReader {
    /// Every key, in order.
    static let allKeys: [ConfigKey] =
        daemonRows.map(\.key) + sourceRows.map(\.key) + clientRows.map(\.key) + geoclueRows.map(\.key) + policyRows.map(\.key)

    // MARK: - [daemon]

    static let daemonRows: [KeyRow<DaemonConfig>] = [
        .init(.daemon, "socket", "absolute path", default: DaemonConfig.defaultSocket, reload: .restart,
              read: { r, e, s, c in if let path = r.absolutePath(e, s, maxLength: DaemonConfig.maximumSocketPathLength) { c.socket = path } },
              render: { $0.socket }),
        .init(.daemon, "socket_group", "group name or number | empty", default: DaemonConfig.defaultSocketGroup, reload: .restart,
              read: { r, e, s, c in
                  if let group = r.optionalValue(e, s, accepted: "a group name or number, or nothing for root only", Self.isGroupName) {
                      c.socketGroup = group
                  }
              },
              render: { $0.socketGroup ?? "" }),
        .init(.daemon, "socket_mode", "octal mode | empty", default: ProgramSettings.octal(DaemonConfig.defaultSocketMode), reload: .restart,
              read: { r, e, s, c in
                  if e.value.isEmpty {
                      c.socketMode = DaemonConfig.defaultSocketMode
                  } else if let mode = Self.socketMode(e.value) {
                      c.socketMode = mode
                  } else {
                      r.bad(e, s, accepted: Self.socketModes)
                  }
              },
              render: { ProgramSettings.octal($0.socketMode) }),
        .init(.daemon, "report_days", "days", default: "7", reload: .applies,
              read: { r, e, s, c in
                  if let days = r.value(e, s, Self.integer, accepted: "a number of days from 1 to 366", where: { (1...366).contains($0) }) {
                      c.reportDays = days
                  }
              },
              render: { String($0.reportDays) }),
        .init(.daemon, "state_dir", "absolute path", default: DaemonConfig.defaultStateDirectory, reload: .restart,
              read: { r, e, s, c in if let path = r.absolutePath(e, s) { c.stateDirectory = path } },
              render: { $0.stateDirectory }),
        .init(.daemon, "log_dir", "absolute path", default: DaemonConfig.defaultLogDirectory, reload: .applies,
              read: { r, e, s, c in if let path = r.absolutePath(e, s) { c.logDirectory = path } },
              render: { $0.logDirectory }),
        .init(.daemon, "services", "boolean", default: "on", reload: .applies,
              read: { r, e, s, c in if let on = r.boolean(e, s) { c.services = on } },
              render: { onOff($0.services) }),
        .init(.daemon, "fsync", "always | interval", default: FsyncPolicy.always.rawValue, reload: .applies,
              read: { r, e, s, c in
                  if let policy = FsyncPolicy(rawValue: e.value) { c.fsync = policy } else { r.bad(e, s, accepted: "always or interval") }
              },
              render: { $0.fsync.rawValue }),
    ]

    // MARK: - [source] and [source.NAME]

    static let sourceRows: [KeyRow<SourceDraft>] = [
        .init(.source, "type", "gpsd | nmea", default: "gpsd", reload: .restart,
              read: { r, e, s, d in
                  if e.value == "gpsd" || e.value == "nmea" {
                      d.type = e.value
                      d.typeLine = e.line
                  } else {
                      r.bad(e, s, accepted: "gpsd or nmea")
                  }
              },
              render: { $0.type }),
        .init(.source, "host", "host name or address", default: "127.0.0.1", reload: .restart,
              read: { r, e, s, d in
                  if !e.value.isEmpty && !e.value.contains(where: { $0 == " " || $0 == "\t" }) {
                      d.host = e.value
                  } else {
                      r.bad(e, s, accepted: "a host name or IP address")
                  }
              },
              render: { $0.type == "gpsd" ? $0.host : nil }),
        .init(.source, "port", "1–65535", default: "2947", reload: .restart,
              read: { r, e, s, d in
                  if let n = r.value(e, s, Self.integer, accepted: "a TCP port number from 1 to 65535", where: { (1...65535).contains($0) }) {
                      d.port = n
                  }
              },
              render: { $0.type == "gpsd" ? String($0.port) : nil }),
        .init(.source, "device", "absolute path", default: "none (type = nmea needs it)", reload: .restart,
              read: { r, e, s, d in if let path = r.absolutePath(e, s) { d.device = path } },
              render: { $0.type == "nmea" ? $0.device : nil }),
        .init(.source, "baud", SourceConfig.bauds.map(String.init).joined(separator: " | "), default: String(SourceConfig.defaultBaud),
              reload: .restart,
              read: { r, e, s, d in
                  let bauds = ConfigError.listed(SourceConfig.bauds.map(String.init))
                  if let n = r.value(e, s, Self.integer, accepted: bauds, where: SourceConfig.bauds.contains) { d.baud = n }
              },
              render: { $0.type == "nmea" ? String($0.baud) : nil }),
        .init(.source, "failover", "seconds > 0", default: "3", reload: .applies,
              read: { r, e, s, d in
                  if let seconds = r.value(e, s, Self.decimal, accepted: "a number of seconds greater than 0", where: { $0 > 0 }) {
                      d.failover = seconds
                  }
              },
              render: { $0.failover.map(DaemonConfig.number) }),
    ]

    /// `[source.NAME]`'s rows: `[source]`'s less `failover`.
    static let namedSourceRows = sourceRows.filter { $0.key.name != "failover" }

    // MARK: - [client.NAME]

    static let clientRows: [KeyRow<ClientSettings>] = clientOwnRows + programRows + appRows + mqttRows

    private static let clientOwnRows: [KeyRow<ClientSettings>] = [
        .init(.client, "log", "file name | absolute path | empty", default: "", reload: .applies,
              read: { r, e, s, c in
                  let accepted = "a file name inside log_dir (no .. and not ending in /), an absolute path, or nothing for no log"
                  if let log = r.optionalValue(e, s, accepted: accepted, Self.isLogPath) { c.log = log }
              },
              render: { $0.log ?? "" }),
        .init(.client, "distance_filter", "number of metres ≥ 0 | none", default: "none", reload: .applies,
              read: { r, e, s, c in
                  if e.value == "none" {
                      c.distanceFilter = nil
                  } else if let m = r.value(e, s, Self.decimal, accepted: "none, or a number of metres (0 or more)", where: { $0 >= 0 }) {
                      c.distanceFilter = m
                  }
              },
              render: { $0.distanceFilter.map(DaemonConfig.number) ?? "none" }),
        .init(.client, "desired_accuracy",
              DesiredAccuracy.words.joined(separator: " | ") + " | number of metres > 0", default: DesiredAccuracy.best.description,
              reload: .applies,
              read: { r, e, s, c in
                  if DesiredAccuracy.words.contains(e.value), let accuracy = DesiredAccuracy(word: e.value) {
                      c.desiredAccuracy = accuracy
                  } else if let m = r.value(e, s, Self.decimal, accepted: Self.accuracyWords, where: { $0 > 0 }) {
                      c.desiredAccuracy = .meters(m)
                  }
              },
              render: { $0.desiredAccuracy.description }),
        .init(.client, "authorization", "ask | never | while-using | always", default: AuthorizationStatus.ask.rawValue, reload: .applies,
              read: { r, e, s, c in
                  if let status = AuthorizationStatus(rawValue: e.value), status != .restricted {
                      c.authorization = status
                  } else {
                      r.bad(e, s, accepted: Self.authorizationWords,
                            note: e.value == "restricted" ? "restricted is set by [policy] restricted, not per client" : nil)
                  }
              },
              render: { $0.authorization.rawValue }),
        .init(.client, "precise", "boolean", default: "on", reload: .applies,
              read: { r, e, s, c in if let on = r.boolean(e, s) { c.precise = on } },
              render: { onOff($0.precise) }),
        .init(.client, "updating", "boolean", default: "off", reload: .applies,
              read: { r, e, s, c in if let on = r.boolean(e, s) { c.updating = on } },
              render: { onOff($0.updating) }),
        .init(.client, "in_use", "boolean", default: "off", reload: .applies,
              read: { r, e, s, c in if let on = r.boolean(e, s) { c.inUse = on } },
              render: { onOff($0.inUse) }),
        .init(.client, "usage", "text | empty", default: "", reload: .applies,
              read: { _, e, _, c in c.usage = e.value.isEmpty ? nil : e.value },
              render: { $0.usage ?? "" }),
        .init(.client, "usage_always", "text | empty", default: "", reload: .applies,
              read: { _, e, _, c in c.usageAlways = e.value.isEmpty ? nil : e.value },
              render: { $0.usageAlways ?? "" }),
        .init(.client, "receiver", "best | device path", default: "best", reload: .applies,
              read: { r, e, s, c in
                  if e.value == "best" {
                      c.receiver = nil
                  } else if !e.value.isEmpty, !e.value.contains(where: { $0 == " " || $0 == "\t" }) {
                      c.receiver = e.value
                  } else {
                      r.bad(e, s, accepted: "best, or a receiver's device path as gpsd names it (e.g. /dev/ttyUSB0)")
                  }
              },
              render: { $0.receiver ?? "best" }),
        .init(.client, "purpose.KEY", "text", default: "none", reload: .applies,
              read: { r, e, s, c in
                  if e.value.isEmpty {
                      r.bad(e, s, accepted: "a sentence saying why full accuracy is needed")
                  } else {
                      c.purposes[String(e.key.dropFirst("purpose.".count))] = e.value
                  }
              },
              renderAll: { c in c.purposes.keys.sorted().map { ("purpose.\($0)", c.purposes[$0] ?? "") } }),
        .init(.client, "once_grace", "seconds ≥ 0", default: "60", reload: .applies,
              read: { r, e, s, c in
                  if let t = r.value(e, s, Self.decimal, accepted: "a number of seconds (0 or more)", where: { $0 >= 0 }) { c.onceGrace = t }
              },
              render: { DaemonConfig.number($0.onceGrace) }),
        .init(.client, "reduced_grid", "metres ≥ 200", default: "2000", reload: .applies,
              read: { r, e, s, c in
                  if let m = r.value(e, s, Self.decimal, accepted: "a number of metres, at least 200", where: { $0 >= 200 }) { c.reducedGrid = m }
              },
              render: { DaemonConfig.number($0.reducedGrid) }),
        .init(.client, "reduced_interval", "seconds ≥ 0", default: "900", reload: .applies,
              read: { r, e, s, c in
                  if let t = r.value(e, s, Self.decimal, accepted: "a number of seconds (0 or more)", where: { $0 >= 0 }) { c.reducedInterval = t }
              },
              render: { DaemonConfig.number($0.reducedInterval) }),
        .init(.client, "locate_timeout", "seconds > 0", default: "30", reload: .applies,
              read: { r, e, s, c in
                  if let t = r.value(e, s, Self.decimal, accepted: "a number of seconds greater than 0", where: { $0 > 0 }) { c.locateTimeout = t }
              },
              render: { DaemonConfig.number($0.locateTimeout) }),
        .init(.client, "geoclue_id", "desktop id | empty", default: "", reload: .applies,
              read: { r, e, s, c in
                  let accepted = "a GeoClue desktop id (org.gnome.Maps, where-am-i), or nothing; " + DesktopId.rule
                  if let id = r.optionalValue(e, s, accepted: accepted, DesktopId.isValid) { c.geoclueId = id }
              },
              render: { $0.geoclueId ?? "" }),
        .init(.client, "split", "hour | day | N min | size | none", default: "none", reload: .applies,
              read: { r, e, s, c in
                  if e.value == "none" || e.value.isEmpty {
                      c.split = nil
                  } else if let split = LogSplit(text: e.value) {
                      c.split = split
                  } else {
                      r.bad(e, s, accepted: "none, " + LogSplit.accepted)
                  }
              },
              render: { $0.split?.description ?? "none" }),
        .init(.client, "raw_log", "file name pattern | absolute pattern | empty", default: "", reload: .applies,
              read: { r, e, s, c in
                  let accepted = "a file name pattern inside log_dir with %r for the receiver (no .., not ending in /), an absolute one, or nothing"
                  if let raw = r.optionalValue(e, s, accepted: accepted, Self.isLogPath) { c.rawLog = raw }
              },
              render: { $0.rawLog ?? "" }),
        .init(.client, "heartbeat", "seconds ≥ 1 | none", default: "none", reload: .applies,
              read: { r, e, s, c in
                  if e.value == "none" || e.value.isEmpty {
                      c.heartbeat = nil
                  } else if let t = r.value(e, s, Self.decimal, accepted: "none, or a number of seconds (at least 1)", where: { $0 >= 1 }) {
                      c.heartbeat = t
                  }
              },
              render: { $0.heartbeat.map(DaemonConfig.number) ?? "none" }),
    ]

    /// The keys that serve programs (`ProgramSettings`); read by `readProgramKey`, taken at start.
    static let programRows: [KeyRow<ClientSettings>] = [
        program("gpsd_socket", "absolute path | empty", default: "") { $0.gpsdSocket ?? "" },
        program("gpsd_port", "1–65535 | empty", default: "") { $0.gpsdPort.map(String.init) ?? "" },
        program("nmea_socket", "absolute path | empty", default: "") { $0.nmeaSocket ?? "" },
        program("socket_mode", "octal mode, 0600–0777 | empty", default: ProgramSettings.octal(ProgramSettings.defaultSocketMode)) {
            ProgramSettings.octal($0.socketMode)
        },
        program("socket_group", "group name or number | empty", default: "") { $0.socketGroup ?? "" },
        program("allow_users", "user names or numbers | empty", default: "") { $0.allowUsers.joined(separator: " ") },
        program("allow_groups", "group names or numbers | empty", default: "") { $0.allowGroups.joined(separator: " ") },
    ]

    private static func program(
        _ name: String, _ type: String, default defaultValue: String, render: @escaping @Sendable (ProgramSettings) -> String
    ) -> KeyRow<ClientSettings> {
        .init(.client, name, type, default: defaultValue, reload: .restart,
              read: { r, e, s, c in r.readProgramKey(e, s, into: &c.programs) }, render: { render($0.programs) })
    }

    /// The keys naming the client's app (`AppSettings`); read by `readAppKey`, resolved at start.
    static let appRows: [KeyRow<ClientSettings>] = [
        app("app_users", "user names or numbers | empty") { $0.users },
        app("app_groups", "group names or numbers | empty") { $0.groups },
        app("app_units", "systemd units | empty") { $0.units },
    ]

    private static func app(
        _ name: String, _ type: String, render: @escaping @Sendable (AppSettings) -> [String]
    ) -> KeyRow<ClientSettings> {
        .init(.client, name, type, default: "", reload: .restart,
              read: { r, e, s, c in r.readAppKey(e, s, into: &c.app) }, render: { render($0.app).joined(separator: " ") })
    }

    /// The `mqtt_*` keys (`MQTTSettings`): read together, after the section, by `readMQTT` (they
    /// depend on one another and on `log`); written only for a client that publishes.
    static let mqttRows: [KeyRow<ClientSettings>] = [
        mqtt("mqtt_broker", "host:port | host | [IPv6]:port", default: "none (the client does not publish)") { $0.broker },
        mqtt("mqtt_topic", "topic", default: MQTTSettings.defaultTopic(client: "NAME")) { $0.topic },
        mqtt("mqtt_tid", "one or two letters or digits", default: "the last two characters of NAME") { $0.trackerID },
        mqtt("mqtt_qos", "0 | 1 | 2", default: String(MQTTSettings.defaultQoS)) { String($0.qos) },
        mqtt("mqtt_username", "name", default: "") { $0.username ?? "" },
        mqtt("mqtt_password_file", "absolute path", default: "") { $0.passwordFile ?? "" },
        mqtt("mqtt_tls_ca", "absolute path", default: "") { $0.tlsCA ?? "" },
        mqtt("mqtt_tls_cert", "absolute path", default: "") { $0.tlsCert ?? "" },
        mqtt("mqtt_tls_key", "absolute path", default: "") { $0.tlsKey ?? "" },
    ]

    private static func mqtt(
        _ name: String, _ type: String, default defaultValue: String, render: @escaping @Sendable (MQTTSettings) -> String
    ) -> KeyRow<ClientSettings> {
        .init(.client, name, type, default: defaultValue, reload: .restart,
              read: { _, _, _, _ in }, render: { $0.mqtt.map(render) })
    }

    // MARK: - [geoclue]

    static let geoclueRows: [KeyRow<GeoClueSettings>] = [
        .init(.geoclue, "bus", "system | D-Bus address", default: GeoClueSettings.Bus.system.description, reload: .restart,
              read: { r, e, s, g in
                  if e.value == "system" {
                      g.bus = .system
                  } else if e.value.contains(":"), !e.value.contains(where: { $0 == " " || $0 == "\t" }) {
                      g.bus = .address(e.value)
                  } else {
                      r.bad(e, s, accepted: "system, or a D-Bus address such as unix:path=/run/geoclue-test/bus")
                  }
              },
              render: { $0.bus.description }),
        .init(.geoclue, "max_apps", "1–4096", default: String(GeoClueSettings().maximumApps), reload: .restart,
              read: { r, e, s, g in
                  if let n = r.value(e, s, Self.integer, accepted: "a number of apps from 1 to 4096", where: { (1...4096).contains($0) }) {
                      g.maximumApps = n
                  }
              },
              render: { String($0.maximumApps) }),
        .init(.geoclue, "new_apps", "ask | deny", default: "ask", reload: .restart,
              read: { r, e, s, g in
                  switch e.value {
                  case "ask": g.newAppsAsk = true
                  case "deny": g.newAppsAsk = false
                  default: r.bad(e, s, accepted: "ask or deny")
                  }
              },
              render: { $0.newAppsAsk ? "ask" : "deny" }),
        .init(.geoclue, "precise", "boolean", default: "on", reload: .restart,
              read: { r, e, s, g in
                  switch e.value.lowercased() {
                  case "on", "yes", "true", "1": g.precise = true
                  case "off", "no", "false", "0": g.precise = false
                  default: r.bad(e, s, accepted: Self.booleans)
                  }
              },
              render: { onOff($0.precise) }),
        .init(.geoclue, "usage", "sentence", default: GeoClueSettings().usage, reload: .restart,
              read: { r, e, s, g in
                  if e.value.isEmpty {
                      r.bad(e, s, accepted: "the sentence a new app's prompt shows (%s: its desktop id)")
                  } else {
                      g.usage = e.value
                  }
              },
              render: { $0.usage }),
    ]

    // MARK: - [policy]

    static let policyRows: [KeyRow<Restriction?>] = [
        .init(.policy, "restricted", "client names | empty", default: "", reload: .applies,
              read: { _, e, _, p in p = Restriction(names: e.value.split { $0 == " " || $0 == "\t" || $0 == "," }.map(String.init), line: e.line) },
              render: { $0?.names.joined(separator: " ") ?? "" }),
    ]

    /// `on` or `off`, as a boolean is written back.
    private static func onOff(_ on: Bool) -> String { on ? "on" : "off" }
}

/// A source section as it is read (its endpoint's parts, before they make a `SourceConfig`) or
/// rendered (from a `NamedSource`).
struct SourceDraft {
    /// `gpsd` or `nmea`; `nil` renders no endpoint (a `[source]` holding only `failover`).
    var type: String? = "gpsd"
    /// The line of `type`, for a missing device's message.
    var typeLine: Int
    /// gpsd's host.
    var host = "127.0.0.1"
    /// gpsd's port.
    var port = 2947
    /// The NMEA device.
    var device: String?
    /// The NMEA device's speed.
    var baud = SourceConfig.defaultBaud
    /// `failover`, where the section sets or renders it.
    var failover: Double?

    /// A section being read, starting on `line`.
    init(line: Int) {
        typeLine = line
    }

    /// The section of `source` (none: a `[source]` only for `failover`), with `failover` where it is written.
    init(rendering source: NamedSource?, failover: Double?) {
        typeLine = 0
        self.failover = failover
        switch source?.endpoint {
        case .gpsd(let host, let port)?:
            self.host = host
            self.port = port
        case .nmea(let device, let baud)?:
            type = "nmea"
            self.device = device
            self.baud = baud
        case nil:
            type = nil
        }
    }
}

/// `[policy] restricted` as read: the names, and the line that names them.
struct Restriction {
    /// The client names, as written.
    var names: [String]
    /// The line, for an unknown name's message.
    var line = 0
}
