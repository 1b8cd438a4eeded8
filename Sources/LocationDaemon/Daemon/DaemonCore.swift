import LocationCore

/// The one owner of the authorization engine while the daemon runs: it
/// serialises fixes and source states (from the source service), the 1 s
/// tick, control requests and watchers (from the control server), reloads
/// and shutdown. Effects go through the `EffectCarrier` that replay uses too;
/// `state.json` is saved through a `StateKeeper` (debounced, always at
/// shutdown); every accepted change through the socket is appended to
/// `audit.jsonl` with the state it changed, before and after.
///
/// Time: the engine's `now` is the monotonic clock; events and status
/// replies are stamped with the wall clock.
public actor DaemonCore: ControlHandler {
    /// Why the core could not start.
    public enum StartError: Error, Sendable, CustomStringConvertible {
        /// Client logs could not be opened.
        case logs(ClientLogs.OpenErrors)
        /// The audit log could not be opened.
        case audit(SystemError)

        /// What is wrong, one problem per line.
        public var description: String {
            switch self {
            case .logs(let errors): errors.description
            case .audit(let error): "cannot open the audit log: \(error); make log_dir writable by the user locationd runs as"
            }
        }
    }

    /// The source as people name it: `gpsd 127.0.0.1:2947`, `nmea /dev/ttyACM0`.
    public nonisolated let sourceName: String
    /// The configuration in force (a reload replaces it, less the keys that need a restart).
    public private(set) var config: DaemonConfig

    private var engine: Engine
    private let carrier: EffectCarrier
    private let state: StateKeeper
    private let audit: AuditLog
    private let clock: DaemonClock
    private var effects: [Effect] = []
    private var watchers: [WatcherID: Watcher] = [:]
    private var watcherOrder: [WatcherID] = []
    private var nextWatcher: UInt64 = 1
    private var reportedSource: SourceState?
    private var stopped = false
    /// Fixes the source has reported (any mode).
    public private(set) var fixesSeen = 0

    private struct Watcher {
        var client: String?
        var sink: any WatchSink
        var peer: PeerCredentials
    }

    /// Loads the state (setting a corrupt file aside), makes the engine and
    /// opens every client's log and the audit log. `seed` seeds the
    /// reduced-accuracy secrets of clients without saved state (pass
    /// `randomSeed()`). Throws when a log cannot be opened: the daemon cannot
    /// do its job then.
    public init(config: DaemonConfig, seed: UInt64, clock: DaemonClock = .system) throws(StartError) {
        self.config = config
        self.clock = clock
        sourceName = Self.name(of: config.source)
        state = StateKeeper(store: StateStore(path: config.statePath))
        let saved = state.load()
        engine = Engine(settings: config.engineSettings, saved: saved, seed: seed)
        let logs: ClientLogs
        do {
            logs = try ClientLogs(config: config)
        } catch {
            throw .logs(error)
        }
        do {
            audit = try AuditLog(path: config.auditLogPath)
        } catch {
            logs.closeAll()
            throw .audit(error)
        }
        carrier = EffectCarrier(logs: logs)
        effects.reserveCapacity(16)
        if saved == nil {
            // Write the state at once, so the reduced-accuracy secrets just drawn survive a crash.
            state.saveNow(engine.savedState, now: clock.monotonic())
        }
    }

    /// 64 random bits from the kernel (`getrandom`), for `init(config:seed:)`.
    public static func randomSeed() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    /// `gpsd 127.0.0.1:2947`, `gpsd [::1]:2947`, `nmea /dev/ttyACM0`.
    public static func name(of source: SourceConfig) -> String {
        switch source {
        case .gpsd(let host, let port): host.contains(":") ? "gpsd [\(host)]:\(port)" : "gpsd \(host):\(port)"
        case .nmea(let device, _): "nmea \(device)"
        }
    }

    // MARK: - Inputs

    /// One event from the fix source.
    public func ingest(_ event: SourceEvent) {
        guard !stopped else { return }
        let now = clock.monotonic()
        effects.removeAll(keepingCapacity: true)
        switch event {
        case .fix(let fix):
            fixesSeen += 1
            engine.handle(.fix(fix), now: now, into: &effects)
        case .state(let sourceState, let detail):
            if sourceState != reportedSource {
                // The sources log their own connects and losses; this is the engine's view.
                Diagnostics.debug("\(sourceName): \(sourceState.rawValue): \(detail)")
                reportedSource = sourceState
            }
            engine.handle(.source(sourceState), now: now, into: &effects)
        }
        carry(now: now)
    }

    /// The 1 s duty: engine timers, held log lines and `fsync = interval`, a pending state save.
    public func tick() {
        guard !stopped else { return }
        let now = clock.monotonic()
        effects.removeAll(keepingCapacity: true)
        engine.handle(.tick, now: now, into: &effects)
        carry(now: now)
        carrier.logs.flushIfDue(now: now)
        audit.flushIfDue(now: now)
        state.saveIfDue(now: now) { engine.savedState }
    }

    /// SIGHUP, first half: reopens every log (logrotate has renamed them).
    public func reopenLogs() {
        guard !stopped else { return }
        let open = carrier.logs.reopenAll()
        do {
            try audit.reopen()
        } catch {
            Diagnostics.error("cannot reopen the audit log \(audit.path) (\(error)); still writing the file open before")
        }
        Diagnostics.notice("reopened \(open) log\(open == 1 ? "" : "s") and the audit log")
    }

    /// SIGHUP, second half: takes a reloaded configuration. The engine keeps
    /// every remaining client's state; logs follow the new paths. Keys that
    /// only a restart can change (socket, socket_group, source, state_dir)
    /// keep their running values; their names come back so the caller can
    /// say a restart is needed.
    @discardableResult
    public func reload(_ newConfig: DaemonConfig) -> [String] {
        guard !stopped else { return [] }
        var effective = newConfig
        var needRestart: [String] = []
        func keepRunning<Value: Equatable>(_ setting: WritableKeyPath<DaemonConfig, Value>, _ name: String) {
            guard newConfig[keyPath: setting] != config[keyPath: setting] else { return }
            needRestart.append(name)
            effective[keyPath: setting] = config[keyPath: setting]
        }
        keepRunning(\.socket, "socket")
        keepRunning(\.socketGroup, "socket_group")
        keepRunning(\.source, "[source]")
        keepRunning(\.stateDirectory, "state_dir")
        let now = clock.monotonic()
        effects = engine.handle(effective.engineSettings, now: now)
        carrier.logs.reconfigure(effective)
        config = effective
        carry(now: now)
        return needRestart
    }

    /// Shutdown: writes and syncs every log, saves the state, closes the logs.
    /// Later inputs are ignored.
    public func shutdown() {
        guard !stopped else { return }
        stopped = true
        carrier.logs.closeAll()
        audit.close()
        state.saveNow(engine.savedState, now: clock.monotonic())
        watchers.removeAll()
        watcherOrder.removeAll()
    }

    /// Start-up failed after the core was made: closes the logs without saving
    /// the state (nothing changed it yet, and another daemon may own the file).
    public func abandon() {
        guard !stopped else { return }
        stopped = true
        carrier.logs.closeAll()
        audit.close()
    }

    // MARK: - Queries

    /// One line for systemd's `STATUS=`: what is being logged and how the source is.
    public func statusLine() -> String {
        let status = engine.status(now: clock.monotonic())
        let source: String
        switch status.source {
        case .connecting: source = "waiting for \(sourceName)"
        case .connected: source = "\(sourceName) connected, no fix yet"
        case .noFix: source = "\(sourceName) connected, receiver has no fix"
        case .fix: source = "\(sourceName) connected"
        }
        let receiving = status.clients.filter(\.delivering)
        let count = receiving.count == 1 ? "1 client" : "\(receiving.count) clients"
        if !status.services { return "Location Services are off; \(source)" }
        if receiving.isEmpty {
            guard let first = status.clients.first else { return "no clients configured; \(source)" }
            let others = status.clients.count > 1 ? " (and \(status.clients.count - 1) more)" : ""
            return "no client receiving fixes: \(first.authorization.client) \(first.reason)\(others); \(source)"
        }
        if status.source == .fix, let mode = status.lastFix?.mode {
            return "logging \(mode) fixes for \(count); \(source)"
        }
        return "\(count) waiting for a fix; \(source)"
    }

    /// The engine's status, as `status` replies carry it.
    public func statusReport() -> StatusReport {
        StatusReport(status: engine.status(now: clock.monotonic()), time: clock.wall(), sourceName: sourceName)
    }

    /// What the engine would save now.
    public var savedState: SavedState { engine.savedState }

    /// Deliveries, errors and prompts carried out since start.
    public var tally: EffectCarrier.Tally { carrier.tally }

    /// State saves written since start.
    public var stateSaves: Int { state.saves }

    /// The log path of each client that has one, by name.
    public var logPaths: [String: String] {
        var paths: [String: String] = [:]
        for client in carrier.logs.clients {
            if let path = carrier.logs.path(of: client) { paths[client] = path }
        }
        return paths
    }

    // MARK: - ControlHandler

    /// Answers `hello`, `status`, `prompts` and engine commands.
    public func handle(_ request: ControlRequest, from peer: PeerCredentials) -> ControlReply {
        switch request.operation {
        case .hello:
            let clients = engine.settings.clients.map {
                HelloReply.Client(name: $0.name, log: carrier.logs.path(of: $0.name))
            }
            return .hello(id: request.id, HelloReply(clients: clients))
        case .status(let client):
            let report = statusReport()
            guard let client else { return .status(id: request.id, report) }
            guard let one = report.only(client: client) else {
                return .unknownClient(id: request.id, client: client, known: engine.settings.clients.map(\.name))
            }
            return .status(id: request.id, one)
        case .prompts:
            return .prompts(id: request.id, engine.prompts)
        case .watch:
            return .error(
                id: request.id, code: CommandError.Code.invalidArgument.rawValue,
                message: "watch turns the connection into an event stream; the server handles it")
        case .command(let command):
            guard !stopped else {
                return .error(
                    id: request.id, code: ControlServer.shuttingDownCode,
                    message: "locationd is stopping; try again when it has restarted")
            }
            let now = clock.monotonic()
            let before = auditedState(of: command, now: now)
            let result = engine.handle(command, now: now)
            effects = result.effects
            carry(now: now)
            if case .success(let outcome) = result.outcome, outcome.changed {
                Diagnostics.notice("\(peer): \(ControlRequest(.command(command)).json.serialized): \(outcome.message)")
                audit.record(
                    AuditRecord(
                        time: clock.wall(), peer: peer, request: request, before: before,
                        after: auditedState(of: command, now: now)))
            }
            return ControlReply(id: request.id, result: result.outcome)
        }
    }

    /// What a command can change, for the audit log: the Location Services
    /// switch, or the client's authorization with its app state and prompt.
    private func auditedState(of command: Command, now: Double) -> JSONValue {
        let status = engine.status(now: now)
        guard let name = command.client else { return .object([("services", .bool(status.services))]) }
        guard let client = status.clients.first(where: { $0.authorization.client == name }) else { return .null }
        var members = client.authorization.json.objectValue ?? []
        members.append(("inUse", .bool(client.inUse)))
        members.append(("updating", .bool(client.updating)))
        members.append(("locatePending", .bool(client.locatePending)))
        if let prompt = client.prompt { members.append(("prompt", .string(prompt.kind.rawValue))) }
        return .object(members)
    }

    /// Registers a watcher: the reply, the initial state, then every matching event.
    public func watch(
        _ request: ControlRequest, client: String?, from peer: PeerCredentials, sink: any WatchSink
    ) -> WatcherID? {
        if let client, engine.authorization(of: client) == nil {
            let reply = ControlReply.unknownClient(id: request.id, client: client, known: engine.settings.clients.map(\.name))
            _ = sink.send(Array(reply.line().utf8))
            return nil
        }
        guard sink.send(Array(ControlReply.watching(id: request.id, client: client).line().utf8)) else { return nil }
        let snapshot = ControlEvent.snapshot(
            source: engine.status(now: clock.monotonic()).source, authorizations: engine.authorizations,
            prompts: engine.prompts, time: clock.wall(), client: client)
        for event in snapshot {
            guard sink.send(event.line()) else { return nil }
        }
        let id = WatcherID(rawValue: nextWatcher)
        nextWatcher += 1
        watchers[id] = Watcher(client: client, sink: sink, peer: peer)
        watcherOrder.append(id)
        return id
    }

    /// Forgets a watcher whose connection closed.
    public func unwatch(_ watcher: WatcherID) {
        guard watchers.removeValue(forKey: watcher) != nil else { return }
        watcherOrder.removeAll { $0 == watcher }
    }

    /// Watchers registered now.
    public var watcherCount: Int { watchers.count }

    // MARK: - Effects

    private func carry(now: Double) {
        let watching = !watchers.isEmpty
        carrier.collectsEvents = watching
        carrier.collectsLocations = watching
        carrier.carry(effects, eventTime: clock.wall())
        if carrier.takePersistRequest() {
            state.changed(now: now) { engine.savedState }
        }
        if watching { broadcast(carrier.takeEvents()) }
    }

    private func broadcast(_ events: [ControlEvent]) {
        guard !events.isEmpty else { return }
        var lines: [[UInt8]?] = Array(repeating: nil, count: events.count)
        var dropped: [WatcherID] = []
        for id in watcherOrder {
            guard let watcher = watchers[id] else { continue }
            for (i, event) in events.enumerated() where event.matches(client: watcher.client) {
                let line = lines[i] ?? event.line()
                lines[i] = line
                if !watcher.sink.send(line) {
                    dropped.append(id)
                    break
                }
            }
        }
        for id in dropped {
            if let watcher = watchers[id] {
                Diagnostics.info("stopped sending events to the watcher of \(watcher.peer): it fell too far behind")
            }
            unwatch(id)
        }
    }
}
