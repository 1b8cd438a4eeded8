import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Synchronization
import TestSupport

/// A small stand-in for the daemon core behind the control server: clients
/// with a stored authorization that `authorize` changes, replies of the real
/// shapes, watchers that get the reply, a snapshot and then every event, and
/// a record of every request it was handed (so a test can tell that the
/// server refused something without asking it).
final class FakeControlHandler: ControlHandler {
    struct Watcher {
        var client: String?
        var sink: any WatchSink
    }

    struct State {
        var requests: [(ControlRequest, ControlPeer)] = []
        var stored: [String: AuthorizationStatus] = [:]
        var services = true
        var watchers: [UInt64: Watcher] = [:]
        var nextWatcher: UInt64 = 1
        var refusedByWatchers = 0
        var unwatched: [UInt64] = []
        var holds: [(String, ClientHolder, Bool)] = []
        /// Clients whose locate has not had its outcome yet: pending in `status`, as the daemon
        /// says until the fix or `location-unknown` went out.
        var locating: Set<String> = []
    }

    /// The configured clients, in order.
    let clients: [String]
    /// Where `hello` says each client's log is.
    let logDirectory: String
    /// Each request waits a random time up to this many seconds (0: none), to shuffle task timing.
    let jitter: Double
    /// What a `locate` of a client delivers after its reply: a location, or `nil` for `location-unknown`.
    let locateResult: @Sendable (String) -> LogRecord?
    /// How long the fake receiver takes to give a locate its outcome.
    let locateTakes: Duration

    let state = Mutex(State())

    /// Requests about this client wait until `openGate()`: a request that stays in flight.
    static let gatedClient = "gated"

    /// Lets the requests about `gatedClient` be answered.
    func openGate() {
        gate.open()
    }

    private let gate = Gate()

    init(
        clients: [String] = ["logger", "survey"], logDirectory: String = "/var/log/locationd", jitter: Double = 0,
        locateResult: @escaping @Sendable (String) -> LogRecord? = { _ in nil }, authorization: AuthorizationStatus = .ask,
        locateTakes: Duration = .milliseconds(100)
    ) {
        self.locateTakes = locateTakes
        self.clients = clients
        self.logDirectory = logDirectory
        self.jitter = jitter
        self.locateResult = locateResult
        state.withLock { state in
            for client in clients { state.stored[client] = authorization }
        }
    }

    /// The requests handed over so far.
    var requests: [ControlRequest] { state.withLock { $0.requests.map(\.0) } }
    /// The peers of the requests handed over so far.
    var peers: [ControlPeer] { state.withLock { $0.requests.map(\.1) } }
    /// Registered watchers now.
    var watcherCount: Int { state.withLock { $0.watchers.count } }
    /// Watchers that refused a line (fell behind) and were dropped.
    var refusedByWatchers: Int { state.withLock { $0.refusedByWatchers } }
    /// Watchers the server unregistered.
    var unwatched: [UInt64] { state.withLock { $0.unwatched } }

    func authorization(_ client: String) -> ClientAuthorization {
        state.withLock { state in
            let stored = state.stored[client] ?? .ask
            return ClientAuthorization(
                client: client, status: state.services ? stored : .never, stored: stored,
                reason: state.services ? nil : .servicesOff)
        }
    }

    func handle(_ request: ControlRequest, from peer: ControlPeer) async -> ControlReply {
        state.withLock { $0.requests.append((request, peer)) }
        // A random delay is the point here (it shuffles the order the tasks finish in), not a wait.
        if jitter > 0 { try? await Task.sleep(for: .seconds(Double.random(in: 0...jitter))) }
        if request.operation.client == Self.gatedClient {
            await gate.wait()
            return .ok(id: request.id, fields: [("message", "the gate opened")])
        }
        if let client = request.operation.client, !clients.contains(client) {
            return .unknownClient(id: request.id, client: client, known: clients)
        }
        switch request.operation {
        case .hello:
            return .hello(
                id: request.id,
                HelloReply(clients: clients.map { HelloReply.Client(name: $0, log: "\(logDirectory)/\($0).jsonl") }))
        case .status(let client):
            let report = StatusReport(status: status(), time: 1_773_489_603, sourceName: "fake source")
            if let client, let only = report.only(client: client) { return .status(id: request.id, only) }
            return .status(id: request.id, report)
        case .prompts:
            return .prompts(id: request.id, [])
        case .report:
            return .ok(id: request.id, fields: [("clients", .array([]))])
        case .watch:
            return .error(id: request.id, code: "bad-request", message: "watch goes through watch()")
        case .command(let command):
            return ControlReply(id: request.id, result: .success(apply(command)))
        }
    }

    /// A hold, recorded as the `session CLIENT begin` it stands for, with the holder.
    func hold(_ client: String, by holder: ClientHolder, as peer: ControlPeer, id: JSONValue?) async -> ControlReply {
        state.withLock { $0.holds.append((client, holder, true)) }
        return await handle(ControlRequest(id: id, .command(.session(client: client, inUse: true))), from: peer)
    }

    /// A release, recorded as the `session CLIENT end` it stands for, with the holder.
    func release(_ client: String, by holder: ClientHolder, as peer: ControlPeer, id: JSONValue?) async -> ControlReply {
        state.withLock { $0.holds.append((client, holder, false)) }
        return await handle(ControlRequest(id: id, .command(.session(client: client, inUse: false))), from: peer)
    }

    /// The holds and releases handed over so far: client, holder, and whether it held.
    var holds: [(client: String, holder: ClientHolder, held: Bool)] { state.withLock { $0.holds } }

    func watch(
        _ request: ControlRequest, client: String?, from peer: ControlPeer, sink: any WatchSink
    ) async -> WatcherID? {
        state.withLock { $0.requests.append((request, peer)) }
        if let client, !clients.contains(client) {
            _ = sink.send(Array(ControlReply.unknownClient(id: request.id, client: client, known: clients).line().utf8))
            return nil
        }
        let snapshot = ControlEvent.snapshot(
            source: .fix, authorizations: clients.map(authorization), prompts: [], time: 1_773_489_603, client: client)
        // Registered under the lock with its first lines, so no event can come between them.
        return state.withLock { state -> WatcherID? in
            guard sink.send(Array(ControlReply.watching(id: request.id, client: client, withheld: nil).line().utf8)) else { return nil }
            for event in snapshot where !sink.send(event.line()) { return nil }
            let id = state.nextWatcher
            state.nextWatcher += 1
            state.watchers[id] = Watcher(client: client, sink: sink)
            return WatcherID(rawValue: id)
        }
    }

    func unwatch(_ watcher: WatcherID) async {
        state.withLock { state in
            state.watchers.removeValue(forKey: watcher.rawValue)
            state.unwatched.append(watcher.rawValue)
        }
    }

    /// Sends `event` to every matching watcher; drops those that refuse it.
    /// Returns how many took it.
    @discardableResult
    func broadcast(_ event: ControlEvent) -> Int {
        let line = event.line()
        return state.withLock { state in
            var delivered = 0
            for (id, watcher) in state.watchers where event.matches(client: watcher.client) {
                if watcher.sink.send(line) {
                    delivered += 1
                } else {
                    state.watchers.removeValue(forKey: id)
                    state.refusedByWatchers += 1
                }
            }
            return delivered
        }
    }

    private func status() -> EngineStatus {
        let clientStatuses = clients.map { client -> ClientStatus in
            let authorization = authorization(client)
            let delivering = authorization.status == .always || authorization.status == .whileUsing
            return ClientStatus(
                authorization: authorization, inUse: true, updating: true,
                locatePending: state.withLock { $0.locating.contains(client) }, prompt: nil,
                delivering: delivering, reason: delivering ? "\(client) is authorized." : "\(client) is set to \(authorization.status.rawValue).",
                suggestion: delivering ? nil : .authorize(client: client, status: .whileUsing), lastDelivered: nil, deliveredCount: 0)
        }
        let services = state.withLock { $0.services }
        return EngineStatus(services: services, source: .fix, lastFix: nil, lastFixAge: nil, clients: clientStatuses)
    }

    private func apply(_ command: Command) -> CommandOutcome {
        switch command {
        case .authorize(let client, let status):
            let before = authorization(client)
            let changed = state.withLock { state -> Bool in
                defer { state.stored[client] = status }
                return state.stored[client] != status
            }
            if changed {
                broadcast(ControlEvent(.authorization(authorization(client)), time: 1_773_489_604))
            }
            return CommandOutcome(
                changed: changed, message: changed ? "\(client) is now \(status.rawValue)" : "\(client) is already \(before.stored.rawValue)")
        case .services(let on):
            let changed = state.withLock { state -> Bool in
                defer { state.services = on }
                return state.services != on
            }
            return CommandOutcome(changed: changed, message: "Location Services are \(on ? "on" : "off")")
        case .locate(let client, _):
            let result = locateResult(client)
            // Pending until its outcome is out, as the daemon has it: `locationctl locate` asks
            // `status` whether the locate ended, and waits only a second for an outcome after
            // that (a locate the fake called ended at once lost its event on a loaded machine).
            state.withLock { _ = $0.locating.insert(client) }
            Task {
                // The fix comes later than the reply, as a real one does: this stands for the time
                // a receiver takes, not for a condition (a test reads the reply, then the event).
                try? await Task.sleep(for: locateTakes)
                if let result {
                    broadcast(ControlEvent(location: result))
                } else {
                    broadcast(ControlEvent(.error(client: client, code: .locationUnknown, message: "no fix within the timeout"), time: 1_773_489_610))
                }
                state.withLock { _ = $0.locating.remove(client) }
            }
            return CommandOutcome(changed: true, message: "locating \(client)")
        default:
            return CommandOutcome(changed: true, message: "\(command.name) done")
        }
    }
}
