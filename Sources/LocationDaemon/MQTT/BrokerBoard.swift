import LocationCore
import LocationProtocol
import Synchronization

/// The MQTT output face: the publishers register here (in config order), the
/// core reads their statuses when a `status` request comes (`MQTTSection`),
/// and the publishers count what their broker acknowledged in the access
/// report attached here (`mqtt`). It takes no deliveries: each publisher reads
/// its client's log back on a thread of its own. Safe from any thread.
public final class BrokerBoard: OutputFace, Sendable {
    private let publishers = Mutex<[MQTTPublisher]>([])
    private let ledger = Mutex<AccessLedger?>(nil)

    /// An empty board.
    public init() {}

    func register(_ publisher: MQTTPublisher) {
        publishers.withLock { $0.append(publisher) }
    }

    let reportSinks: [ReportSink] = [.mqtt]

    func attach(_ report: AccessLedger) {
        ledger.withLock { $0 = report }
    }

    /// Where the publishers count what their broker acknowledged, once attached.
    var report: AccessLedger? { ledger.withLock { $0 } }

    var statusSection: (any StatusSection)? { MQTTSection(brokers: statuses) }

    /// Every publisher's status now, in config order.
    public var statuses: [BrokerStatus] {
        publishers.withLock { $0 }.map(\.status)
    }
}
