#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationProtocol
import LocationSystem

/// Runs one `MQTTPublisher` per client with `mqtt_broker` (each on its own
/// thread), lists them on the face's `BrokerBoard` for `status`, and hands
/// their changes of state to the core as `broker` events for watchers.
/// Changes to `mqtt_*` keys take effect after a restart.
public final class MQTTService: Service {
    /// `mqtt`.
    public let name = "mqtt"
    private let publishers: [MQTTPublisher]
    private let core: DaemonCore
    private let events: AsyncStream<BrokerStatus>
    private let continuation: AsyncStream<BrokerStatus>.Continuation

    /// Whether any client of `config` publishes.
    public static func isNeeded(_ config: DaemonConfig) -> Bool {
        config.clients.contains { $0.mqtt != nil && $0.log != nil }
    }

    /// Publishers for `config`'s clients, listed on `board`; their threads start in `run()`.
    init(config: DaemonConfig, core: DaemonCore, board: BrokerBoard) {
        self.core = core
        (events, continuation) = AsyncStream.makeStream(of: BrokerStatus.self, bufferingPolicy: .bufferingNewest(256))
        let continuation = continuation
        var made: [MQTTPublisher] = []
        for client in config.clients {
            guard let settings = client.mqtt, let path = config.logPath(forClient: client.name) else { continue }
            let publisher = MQTTPublisher(
                client: client.name, settings: settings, logPath: path, stateDirectory: config.stateDirectory,
                onChange: { continuation.yield($0) }, report: board.report)
            board.register(publisher)
            made.append(publisher)
        }
        publishers = made
    }

    /// Starts every publisher and forwards their events until `shutdown()`.
    public func run() async throws {
        for publisher in publishers {
            try publisher.start()
            Diagnostics.mqtt.info(
                "\(publisher.client): publishing \(publisher.logPath) to \(publisher.settings.scheme)://\(publisher.settings.broker) "
                    + "topic \(publisher.settings.topic), QoS \(publisher.settings.qos)")
        }
        for await status in events {
            core.announce(ControlEvent(broker: status, time: SystemClock.utc()))
        }
    }

    /// Stops every publisher (each saves its cursor) and waits up to 3 s for them.
    public func shutdown() async {
        for publisher in publishers { publisher.stop() }
        let deadline = SystemClock.monotonic() + 3
        while publishers.contains(where: { !$0.isFinished }) && SystemClock.monotonic() < deadline {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        continuation.finish()
    }
}
