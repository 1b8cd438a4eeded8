import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues

/// The daemon's faces (`Face`), in the order the engine's owner hands them effects and `status`
/// lists their sections, after the logs and the watchers the owner keeps itself. A new face is
/// one line here.
enum FaceList {
    /// Every face the daemon knows.
    static let kinds: [any Face.Type] = [
        MQTTFace.self,
        ProgramFace.self,
        GeoClueFace.self,
    ]

    /// The faces the configuration `config` (as the file says) uses, in order.
    static func make(_ config: DaemonConfig) -> [any Face] {
        kinds.compactMap { $0.make(config: config) }
    }

    /// What only this host can say is wrong with `config`, every face's.
    static func hostProblems(_ config: DaemonConfig) -> [ConfigError] {
        kinds.flatMap { $0.hostProblems(config) }
    }

    /// The restart-only changes of every face, added to `reload`.
    static func reloadNeedsRestart(_ reload: inout ConfigReload, running: DaemonConfig) {
        for kind in kinds { kind.reloadNeedsRestart(&reload, running: running) }
    }
}
