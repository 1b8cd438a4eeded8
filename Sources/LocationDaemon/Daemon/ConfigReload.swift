import LocationConfig
import LocationCore

/// What a reloaded configuration changes (SIGHUP): everything, except the keys only a restart
/// can change (the key table's `.restart` rows, ConfigKeyTable.swift; ConfigKeyReloadTests checks
/// that each key does here what its row says). `socket`, `socket_group`, `socket_mode`, the
/// sources (`[source]` and every `[source.NAME]`, named `[source]` in the list; `failover` is not
/// one: it takes effect) and `state_dir` keep their running values, and their names are listed so
/// the daemon can say a restart is needed; so are the app keys (the servers take them at start
/// only), then what each face takes only at start (`Face.reloadNeedsRestart`, in the order of
/// `FaceList`: the mqtt_* keys, the program keys, `[geoclue]`).
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
        if Self.apps(of: reloaded) != Self.apps(of: running) { needRestart.append(Self.appKeys) }
        FaceList.reloadNeedsRestart(&self, running: running)
    }

    /// The keys naming a client's app, which the servers resolve at start.
    static let appKeys = "the app keys (" + AppSettings.keys.joined(separator: ", ") + ")"

    /// Each client's app, by name.
    static func apps(of config: DaemonConfig) -> [String: AppSettings] {
        var apps: [String: AppSettings] = [:]
        for client in config.clients where !client.app.isEmpty { apps[client.name] = client.app }
        return apps
    }

    /// Keeps the running value of `setting` (named `name` in the list) when the reloaded one differs.
    mutating func keepRunning<Value: Equatable>(
        _ setting: WritableKeyPath<DaemonConfig, Value>, _ name: String, running: DaemonConfig
    ) {
        guard effective[keyPath: setting] != running[keyPath: setting] else { return }
        needRestart.append(name)
        effective[keyPath: setting] = running[keyPath: setting]
    }
}
