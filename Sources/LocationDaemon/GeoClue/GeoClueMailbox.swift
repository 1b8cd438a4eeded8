import LocationCore
import LocationProtocol
import Synchronization

/// The GeoClue face's `OutputFace` (docs/geoclue.md): the engine's one owner
/// hands it every delivery of a client that some bus peer has started, with
/// grant and source changes, and the face's bus thread takes them. Handing over
/// only queues, under a lock held for an append: the bus never delays the log.
/// The bus thread publishes here what `status` shows of it, and counts what it
/// signalled in the ledger attached here (sink `geoclue`).
final class GeoClueMailbox: OutputFace, Sendable {
    /// Deliveries queued for the bus thread at most; more are dropped (counted in `dropped`).
    static let maximumPending = 4096

    private struct State {
        /// The started clients' deliveries and grant changes.
        var queue = FaceQueue<Delivery>(limit: GeoClueMailbox.maximumPending)
        var source: SourceState?
        var dropped = 0
        var section: GeoClueSection?
    }

    /// What the bus thread takes at once.
    struct Taken {
        /// Deliveries, in delivery order.
        var deliveries: [Delivery]
        /// Clients whose authorization changed.
        var regranted: Set<String>
        /// The source's state, when it changed.
        var source: SourceState?
    }

    private let state = Mutex(State())
    private let ledger = Mutex<AccessLedger?>(nil)

    /// Whether any client is started on the bus: the carrier hands deliveries over only then.
    var isWatching: Bool { state.withLock { !$0.queue.watched.isEmpty } }

    // MARK: OutputFace

    let reportSinks: [ReportSink] = [.geoclue]
    var wantsDeliveries: Bool { isWatching }

    func deliver(_ deliveries: FaceDeliveries) {
        deliveries.forEach { deliver($0) }
    }

    func observe(_ event: Event, time: Double?) {
        if case .source(let source) = event { sourceChanged(source) }
    }

    var statusSection: (any StatusSection)? { state.withLock { $0.section } }

    func attach(_ report: AccessLedger) {
        ledger.withLock { $0 = report }
    }

    /// Counts a position signalled to a bus peer (the bus thread).
    func count(_ delivery: Delivery, peer: AccessPeer?, time: Double) {
        ledger.withLock { $0 }?.count(delivery.client, sink: .geoclue, accuracy: delivery.accuracy, peer: peer, time: time)
    }

    /// What `status` shows of the face from now on (the bus thread; `nil`: the face is off).
    func publish(_ section: GeoClueSection?) {
        state.withLock { $0.section = section }
    }

    // MARK: The engine's owner

    /// Queues a delivery of a started client (the engine's owner, under its lock).
    func deliver(_ delivery: Delivery) {
        let waker = state.withLock { state -> Wakeup? in
            switch state.queue.append(delivery) {
            case .queued(let waker): return waker
            case .full: state.dropped += 1
            case .ignored: break
            }
            return nil
        }
        waker?.signal()
    }

    /// `client`'s authorization changed: the face looks whether its apps may still be served.
    func grantChanged(_ client: String) {
        let waker = state.withLock { state -> Wakeup? in
            state.queue.serves(client) ? state.queue.regrant(client) : nil
        }
        waker?.signal()
    }

    /// The source's state changed (the Manager's `AvailableAccuracyLevel` follows it).
    func sourceChanged(_ source: SourceState) {
        let waker = state.withLock { state -> Wakeup? in
            state.source = source
            return state.queue.waker
        }
        waker?.signal()
    }

    /// The bus thread's waker (`nil`: none, after it stopped).
    func attach(_ waker: Wakeup?) {
        state.withLock { $0.queue.waker = waker }
    }

    /// Whether `client`'s deliveries are queued (some bus peer started it).
    func setWatched(_ client: String, _ watched: Bool) {
        state.withLock { $0.queue.setWatched(client, watched) }
    }

    /// Everything queued since the last call.
    func take() -> Taken {
        state.withLock { state in
            defer { state.source = nil }
            let (deliveries, regranted) = state.queue.take()
            return Taken(deliveries: deliveries, regranted: regranted, source: state.source)
        }
    }

    /// Deliveries that found the queue full, since the start.
    var dropped: Int { state.withLock { $0.dropped } }
}
