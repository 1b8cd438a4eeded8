import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues

/// MQTT as a face of the daemon (`Face`, docs/mqtt.md): each publishing client's broker is
/// listed on the `BrokerBoard` (its `OutputFace`, for `status`), and `MQTTService` publishes
/// what the clients' logs hold. It reads back what the core wrote, so its service starts before
/// the control socket and stops after it.
final class MQTTFace: Face {
    /// `mqtt`.
    let name = "mqtt"
    /// Each publishing client's status, for `status` (filled by `MQTTService`).
    let board = BrokerBoard()

    /// The face while a client with a log publishes.
    static func make(config: DaemonConfig) -> MQTTFace? {
        MQTTService.isNeeded(config) ? MQTTFace() : nil
    }

    /// The publishers are made at start: a publishing client's settings or log path wait for a restart.
    static func reloadNeedsRestart(_ reload: inout ConfigReload, running: DaemonConfig) {
        if publishing(reload.effective) != publishing(running) { reload.needRestart.append("mqtt_* keys") }
    }

    var output: (any OutputFace)? { board }

    var start: FaceStart { .beforeControl }

    /// The publishers.
    func service(config: DaemonConfig, core: DaemonCore) throws -> (any Service)? {
        MQTTService(config: config, core: core, board: board)
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
}
