import LocationCore

/// What a reloaded configuration changes (SIGHUP): everything, except the
/// keys only a restart can change — `socket`, `socket_group`, `[source]` and
/// `state_dir` keep their running values, and their names are listed so the
/// daemon can say a restart is needed.
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
        keepRunning(\.source, "[source]", running: running)
        keepRunning(\.stateDirectory, "state_dir", running: running)
    }

    private mutating func keepRunning<Value: Equatable>(
        _ setting: WritableKeyPath<DaemonConfig, Value>, _ name: String, running: DaemonConfig
    ) {
        guard effective[keyPath: setting] != running[keyPath: setting] else { return }
        needRestart.append(name)
        effective[keyPath: setting] = running[keyPath: setting]
    }
}
