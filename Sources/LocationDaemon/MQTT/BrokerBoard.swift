import LocationCore
import Synchronization

/// Where `status` finds each client's MQTT publishing: the publishers
/// register here (in config order) and the core reads their statuses when a
/// `status` request comes. Safe from any thread.
public final class BrokerBoard: Sendable {
    private let publishers = Mutex<[MQTTPublisher]>([])

    /// An empty board.
    public init() {}

    func register(_ publisher: MQTTPublisher) {
        publishers.withLock { $0.append(publisher) }
    }

    /// Every publisher's status now, in config order.
    public var statuses: [BrokerStatus] {
        publishers.withLock { $0 }.map(\.status)
    }
}
