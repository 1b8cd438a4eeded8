import LocationCore
import LocationProtocol

/// The clients' logs as an output face: each fix's deliveries counted and
/// formatted once per accuracy (`LogFanout`), the lines handed to `ClientLogs`
/// at the end of the input (`carried`), and each position given to a client's
/// log counted in the access report (`log`). The `EffectCarrier` holds it by
/// its type and hands it deliveries first, without asking (the fix path's fast path).
///
/// Not thread-safe: the engine's one owner (or a replay) calls it.
final class LogFace: OutputFace {
    /// The logs written to.
    let logs: ClientLogs
    /// Deliveries whose fix could not be a log record (never expected from the engine).
    private(set) var unloggable = 0
    private var report: AccessLedger?
    // `@exclusivity(unchecked)`: touched on every fix by its one owner only, never re-entrantly
    // (as `EffectCarrier`'s state; docs/performance.md).
    @exclusivity(unchecked) private var fanout: LogFanout

    /// The face of `logs`.
    init(logs: ClientLogs) {
        self.logs = logs
        fanout = LogFanout(logsGeneration: logs.generation)
    }

    let reportSinks: [ReportSink] = [.log]
    var wantsDeliveries: Bool { true }

    func attach(_ report: AccessLedger) {
        self.report = report
    }

    /// The deliveries that follow are of another effect list than those before
    /// (`LogFanout.startList`): the carrier says so at each list it carries.
    func startList() {
        fanout.startList()
    }

    func deliver(_ deliveries: FaceDeliveries) {
        if let unloggable = fanout.deliver(deliveries.run, of: deliveries.list, logs: logs) {
            self.unloggable += unloggable.count
            if self.unloggable == unloggable.count {
                Diagnostics.log.warning("a fix for \(unloggable.first) has no writable time or position; it is not logged")
            }
        }
        guard let report, let time = deliveries.time else { return }
        // Every position handed to a client's log, for the access report.
        for item in deliveries.run {
            guard case .deliver(let item) = item, !item.again, fanout.hasLog(listClient: item.client, in: logs) else { continue }
            report.count(deliveries.list.names[item.client], sink: .log, accuracy: item.accuracy, time: time)
        }
    }

    func carried() {
        fanout.flush(to: logs)
    }

    /// Deliveries so far per client (logged or not).
    var delivered: [String: Int] {
        var delivered: [String: Int] = [:]
        for recipient in fanout.recipients where recipient.delivered > 0 {
            delivered[recipient.name, default: 0] += recipient.delivered
        }
        return delivered
    }
}
