import LocationCore
import LocationProtocol
import LocationValues
import Synchronization

/// Where a client's deliveries meet its programs — the program sockets'
/// output face: the one owner of the engine hands every delivered record here
/// (through `EffectCarrier`, while any program watches), and the program
/// server's thread takes them and writes them out. Handing over only queues, under a lock held for an
/// append: a slow program can never delay the log or the engine.
///
/// Only the clients a program watches now have their records queued; the
/// queue is bounded (`maximumPending`), and records that find it full are
/// counted, not kept. The program server publishes here who is connected,
/// for `status` (`ProgramsSection`).
public final class ProgramSinks: OutputFace, Sendable {
    /// Records queued for the program server at most; more are counted as dropped.
    public static let maximumPending = 4096

    private struct State {
        /// The watched clients' records, the clients whose authorization changed since the loop last took them.
        var queue = FaceQueue<LogRecord>(limit: ProgramSinks.maximumPending)
        /// The latest sky view per client not yet taken (a newer one replaces it).
        var skies: [String: SkyView] = [:]
        var programs: [ConnectedProgram] = []
        var counts: [String: ProgramCounts] = [:]
    }

    private let state = Mutex(State())
    /// Where positions written to programs are counted (the access report), once the engine's owner attaches it.
    private let ledger = Mutex<AccessLedger?>(nil)

    /// An empty registry: nothing watched, nobody connected.
    public init() {}

    /// Counts positions written to programs in `report` from now on.
    func attach(_ report: AccessLedger) {
        ledger.withLock { $0 = report }
    }

    /// The access report, if attached (the program server counts what it wrote).
    var report: AccessLedger? { ledger.withLock { $0 } }

    // MARK: The engine's owner

    /// Queues a delivery, as its log record, for the programs of its client, if any watch.
    public func deliver(_ delivery: Delivery) {
        let waker = state.withLock { state -> Wakeup? in
            guard state.queue.serves(delivery.client), let record = LogRecord(delivery: delivery) else { return nil }
            switch state.queue.append(record) {
            case .queued(let waker): return waker
            case .full: state.counts[delivery.client, default: ProgramCounts()].dropped += 1
            case .ignored: break
            }
            return nil
        }
        waker?.signal()
    }

    /// Queues a receiver's sky view for the programs of `clients` (the engine's
    /// `skyClients`: full accuracy, delivering from that receiver); a view not yet
    /// taken is replaced by the newer one.
    public func deliverSky(_ view: SkyView, to clients: [String]) {
        let waker = state.withLock { state -> Wakeup? in
            var queued = false
            for client in clients where state.queue.serves(client) {
                state.skies[client] = view
                queued = true
            }
            return queued ? state.queue.waker : nil
        }
        waker?.signal()
    }

    /// Whether any client's programs are connected: the carrier hands over deliveries only then.
    public var isWatching: Bool { state.withLock { !$0.queue.watched.isEmpty } }

    // MARK: OutputFace

    /// The program sockets, as the access report names them (`ProgramEndpoint.sink`).
    let reportSinks: [ReportSink] = [.gpsdSocket, .gpsdPort, .nmeaSocket]
    var wantsDeliveries: Bool { isWatching }
    var wantsSky: Bool { isWatching }

    func deliver(_ deliveries: FaceDeliveries) {
        deliveries.forEach { deliver($0) }
    }

    /// The programs connected and the counts, as `status` shows them.
    var statusSection: (any StatusSection)? {
        state.withLock { ProgramsSection(programs: $0.programs, counts: $0.counts) }
    }

    /// `client`'s authorization changed (status, accuracy, Location
    /// Services): what its programs got before may not be repeated (`?POLL`).
    public func grantChanged(_ client: String) {
        let waker = state.withLock { state -> Wakeup? in
            // A sky queued under the grant that changed is not sent; the next one is judged afresh.
            state.skies[client] = nil
            return state.queue.regrant(client)
        }
        waker?.signal()
    }

    /// The programs connected now, in the order they connected.
    public var programs: [ConnectedProgram] { state.withLock { $0.programs } }

    /// Per client, peers refused at connect time (allow lists, connection
    /// limits), programs cut off and records that found the queue full, since the start.
    public var counts: [String: ProgramCounts] { state.withLock { $0.counts } }

    // MARK: The program server

    /// The waker of the server loop that takes the records.
    func attach(_ waker: Wakeup?) {
        state.withLock { $0.queue.waker = waker }
    }

    /// Whether `client`'s records are queued (some program of it watches).
    func setWatched(_ client: String, _ watched: Bool) {
        state.withLock { state in
            state.queue.setWatched(client, watched)
            if !watched { state.skies[client] = nil }
        }
    }

    /// The records queued since the last call, in delivery order, the
    /// clients whose authorization changed meanwhile, and the latest sky view per client.
    func take() -> (records: [LogRecord], regranted: Set<String>, skies: [String: SkyView]) {
        state.withLock { state in
            defer { state.skies.removeAll() }
            let (records, regranted) = state.queue.take()
            return (records, regranted, state.skies)
        }
    }

    /// Who is connected now.
    func publish(_ programs: [ConnectedProgram]) {
        state.withLock { $0.programs = programs }
    }

    /// Counts a peer of `client` refused at connect time.
    func countRefused(_ client: String) {
        state.withLock { $0.counts[client, default: ProgramCounts()].refused += 1 }
    }

    /// Counts a peer of `client` refused by a connection limit (`busy`).
    func countBusy(_ client: String) {
        state.withLock { $0.counts[client, default: ProgramCounts()].busy += 1 }
    }

    /// Counts a program of `client` cut off for falling behind.
    func countCutOff(_ client: String) {
        state.withLock { $0.counts[client, default: ProgramCounts()].cutOff += 1 }
    }
}
