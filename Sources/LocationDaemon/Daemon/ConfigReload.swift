import LocationConfig
import LocationCore

/// What a reloaded configuration changes (SIGHUP): everything, except the keys only a restart
/// can change (the key table's `.restart` rows, ConfigKeyTable.swift; ConfigKeyReloadTests checks
/// that each key does here what its row says). `socket`, `socket_group`, `socket_mode`,
/// `[geoclue]`, the sources (`[source]` and every `[source.NAME]`, named `[source]` in the list;
/// `failover` is not one: it takes effect) and `state_dir` keep their running values, and their
/// names are listed so the daemon can say a restart is needed; so are the program keys, the app
/// keys and the mqtt_* keys (the servers and publishers take them at start only).
struct ConfigReload: Sendable {
    /// The configuration to run with from now on.
    var effective: DaemonConfig
    /// The restart-only keys that changed, in the order above.
    var needRestart: [String] = []

    /// The difference between the `running` configuration and the `reloaded` one.
    init(running: DaemonConfig, reloaded: DaemonConfig) {
        effective = reloaded
        keepRunning(\.socket, "socket", running: running)
        keepRunning(\.socketGroup, "socket_group", running: running)
        keepRunning(\.socketMode, "socket_mode", running: running)
        keepRunning(\.sources, "[source]", running: running)
        keepRunning(\.stateDirectory, "state_dir", running: running)
        // The GeoClue face is set up at start: its bus and defaults wait for a restart (its apps do not).
        keepRunning(\.geoclue, "[geoclue]", running: running)
        if Self.programSockets(of: reloaded) != Self.programSockets(of: running) { needRestart.append(Self.programKeys) }
        if Self.apps(of: reloaded) != Self.apps(of: running) { needRestart.append(Self.appKeys) }
        // The MQTT publishers are made at start: a publishing client's settings or log path wait for a restart.
        if Self.publishing(reloaded) != Self.publishing(running) { needRestart.append("mqtt_* keys") }
    }

    /// The keys the running program server does not take again (it is set up at start).
    static let programKeys = "the program keys (" + ProgramSettings.keys.joined(separator: ", ") + ")"

    /// The keys naming a client's app, which the servers resolve at start.
    static let appKeys = "the app keys (" + AppSettings.keys.joined(separator: ", ") + ")"

    /// Each client's app, by name.
    static func apps(of config: DaemonConfig) -> [String: AppSettings] {
        var apps: [String: AppSettings] = [:]
        for client in config.clients where !client.app.isEmpty { apps[client.name] = client.app }
        return apps
    }

    /// Each client's program settings, by name.
    static func programSockets(of config: DaemonConfig) -> [String: ProgramSettings] {
        var settings: [String: ProgramSettings] = [:]
        for client in config.clients where client.programs.servesPrograms { settings[client.name] = client.programs }
        return settings
    }

    /// Each publishing client's MQTT settings and log path, by name.
    private static func publishing(_ config: DaemonConfig) -> [String: Publishing] {
        var found: [String: Publishing] = [:]
        for client in config.clients {
            guard let mqtt = client.mqtt else { continue }
            found[client.name] = Publishing(settings: mqtt, log: config.logPath(forClient: client.name))
        }
        return found
    }

    private struct Publishing: Hashable {
        var settings: MQTTSettings
        var log: String?
    }

    private mutating func keepRunning<Value: Equatable>(
        _ setting: WritableKeyPath<DaemonConfig, Value>, _ name: String, running: DaemonConfig
    ) {
        guard effective[keyPath: setting] != running[keyPath: setting] else { return }
        needRestart.append(name)
        effective[keyPath: setting] = running[keyPath: setting]
    }
}
