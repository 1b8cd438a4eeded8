import LocationProtocol
import LocationValues

extension MQTTSection: StatusSectionText {
    /// `client`'s broker, if it publishes (`StatusRenderer.brokerLines`).
    func clientLines(_ client: String, in report: StatusReport) -> [String] {
        brokers.filter { $0.client == client }.flatMap { StatusRenderer.brokerLines($0, now: report.time) }
    }
}

extension StatusRenderer {
    /// A client's MQTT publishing: `  mqtt://host:1883 connected, backlog 0, 412 published, last 09:30:01 (2 s ago)`.
    public static func brokerLines(_ broker: BrokerStatus, now: Double?) -> [String] {
        var line = "  \(broker.broker) \(broker.topic): "
        switch broker.state {
        case .connected: line += "connected"
        case .connecting: line += "connecting"
        default: line += "NOT connected (\(broker.state.rawValue): \(broker.detail); retrying)"
        }
        line += ", backlog \(broker.backlog) record\(broker.backlog == 1 ? "" : "s")"
        line += ", \(broker.published) published since the daemon started"
        if let last = broker.lastPublish {
            line += ", last \(TextFormat.dateTime(last))"
            if let now { line += " (\(TextFormat.duration(now - last)) ago)" }
        }
        var lines = [line]
        if broker.skipped > 0 { lines.append("  ! \(broker.skipped) log line\(broker.skipped == 1 ? " is" : "s are") no record and were not published") }
        if broker.lostFiles > 0 {
            lines.append("  ! \(broker.lostFiles) rotated log\(broker.lostFiles == 1 ? " was" : "s were") deleted before all of it was published")
        }
        return lines
    }

}
