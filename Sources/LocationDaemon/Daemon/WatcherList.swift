import LocationCore
import LocationProtocol

/// The control connections that watch events (`locationctl watch`), and the
/// broadcast of each batch of events to them: every event is encoded once,
/// whoever receives it, and a watcher whose connection cannot keep up is
/// dropped (its connection is closed by the server with a reason).
///
/// An output face: while anyone watches, each engine event and each delivery
/// (as a `location` event) is kept in order and broadcast when the input is
/// carried; `location` events sent are counted in the access report (`watch`).
///
/// Not thread-safe: the engine's owner keeps it behind its lock.
final class WatcherList: OutputFace {
    private struct Watcher {
        var client: String?
        var sink: any WatchSink
        var peer: ControlPeer
        /// Its process name (`/proc/PID/comm`) when it began to watch, for the access report.
        var name: String?
    }

    private var watchers: [WatcherID: Watcher] = [:]
    private var order: [WatcherID] = []
    private var next: UInt64 = 1
    /// Where `location` events sent are counted (the access report), and the wall-clock time they count at.
    private var report: AccessLedger?
    var reportTime = 0.0
    /// Whether Location Services are on: what the engine's owner says before each carry.
    var services = false
    /// The events of the input being carried, in order (kept only while anyone watches).
    private var pending: [ControlEvent] = []

    /// Watchers registered now.
    var count: Int { watchers.count }

    /// Whether nobody watches.
    var isEmpty: Bool { watchers.isEmpty }

    /// Registers a watcher of `client` (`nil`: every client).
    func add(client: String?, sink: any WatchSink, peer: ControlPeer) -> WatcherID {
        let id = WatcherID(rawValue: next)
        next += 1
        watchers[id] = Watcher(client: client, sink: sink, peer: peer, name: PeerProcess.processName(peer.pid))
        order.append(id)
        return id
    }

    /// Forgets a watcher; false if it was not registered.
    @discardableResult
    func remove(_ id: WatcherID) -> Bool {
        guard watchers.removeValue(forKey: id) != nil else { return false }
        order.removeAll { $0 == id }
        return true
    }

    /// Forgets every watcher (shutdown: the server tells them).
    func removeAll() {
        watchers.removeAll()
        order.removeAll()
    }

    // MARK: OutputFace

    let reportSinks: [ReportSink] = [.watch]
    var wantsDeliveries: Bool { !watchers.isEmpty }

    func attach(_ report: AccessLedger) {
        self.report = report
    }

    func deliver(_ deliveries: FaceDeliveries) {
        deliveries.forEach { delivery in
            if let record = LogRecord(delivery: delivery) { pending.append(ControlEvent(location: record)) }
        }
    }

    func observe(_ event: Event, time: Double?) {
        if !watchers.isEmpty { pending.append(ControlEvent(event, time: time)) }
    }

    func carried() {
        guard !pending.isEmpty else { return }
        broadcast(pending, services: services)
        pending.removeAll(keepingCapacity: true)
    }

    // MARK: Broadcast

    /// Sends each watcher the events that match its client and that its
    /// peer may see while Location Services are `services` (`Disclosure`), in order.
    func broadcast(_ events: [ControlEvent], services: Bool) {
        guard !events.isEmpty else { return }
        var lines: [[UInt8]?] = Array(repeating: nil, count: events.count)
        var dropped: [WatcherID] = []
        for id in order {
            guard let watcher = watchers[id] else { continue }
            let filter = watcher.peer.disclosure(services: services)
            for (i, event) in events.enumerated() where event.matches(client: watcher.client) && filter.allows(event) {
                let line = lines[i] ?? event.line()
                lines[i] = line
                if !watcher.sink.send(line) {
                    dropped.append(id)
                    break
                }
                if let report, case .location(let record) = event.kind {
                    report.count(
                        record.client, sink: .watch, accuracy: record.accuracy, peer: AccessPeer(uid: watcher.peer.uid, unit: watcher.peer.unit, name: watcher.name),
                        time: reportTime)
                }
            }
        }
        for id in dropped {
            if let watcher = watchers[id] {
                Diagnostics.control.info("stopped sending events to the watcher of \(watcher.peer): it fell too far behind")
            }
            remove(id)
        }
    }
}
