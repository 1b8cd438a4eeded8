import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem

/// Everything the authorization engine's one owner holds while the daemon
/// runs, and every input carried out start to end: the engine, the
/// `EffectCarrier` with the output faces (the clients' logs, the watchers,
/// then the faces `DaemonCore` registers), the `StateKeeper`, the audit log
/// and the running configuration.
///
/// Not thread-safe: `DaemonCore` keeps it behind its lock, so each input —
/// a fix on the reader thread that read it, a tick or a control request on
/// the core thread — runs alone from the engine to the log line.
final class EngineOwner {
    /// The configuration in force.
    private(set) var config: DaemonConfig
    // `@exclusivity(unchecked)` here: what the fix path mutates on every fix, touched only by
    // its one owner (behind DaemonCore's lock, or a replay) and never re-entrantly, so the
    // runtime's per-access check bought nothing and cost about a tenth of the instructions
    // per fix (docs/ARCHITECTURE.md, "Threads and who owns what"; docs/performance.md).
    /// Fixes the source has reported (any mode).
    @exclusivity(unchecked) private(set) var fixesSeen = 0

    private let sourceName: String
    @exclusivity(unchecked) private var engine: Engine
    let carrier: EffectCarrier
    private let state: StateKeeper
    let audit: AuditLog
    private let clock: DaemonClock
    @exclusivity(unchecked) private var effects = EffectList()
    /// The watchers: a face of the carrier, and the control plane's event stream.
    private let watchers = WatcherList()
    /// Every source and what it last said, in config order (docs/sources.md, "Several sources").
    private var sources: SourceStates
    /// Each receiver's latest sky view and when it arrived (monotonic), by device ("" for
    /// a receiver the source does not name), for `status`.
    private var skies: [String: (view: SkyView, at: Double)] = [:]
    private(set) var stopped = false
    /// Who holds each client, every face's holders (`hold`, `release`).
    private var holders = ClientHolders()
    private let sourceBoard: SourceBoard
    /// The clients' raw captures (`raw_log`).
    private let rawCaptures: RawCaptures
    /// The clients' heartbeat records (`heartbeat`).
    private let heartbeats: Heartbeats
    /// The access report's counts.
    let report: AccessLedger
    /// Sets the core's tick to come by a time (monotonic seconds; `DaemonCore.setAlarm`), or nil.
    private var alarm: (@Sendable (Double) -> Void)?
    /// Told by when (monotonic seconds) systemd's status line should be looked at again, as it
    /// may say something else (`DaemonCore.onStatusChange`), or nil.
    private var statusChanged: (@Sendable (Double) -> Void)?
    /// The mode of the fixes as the status line last heard of it (`Engine.lastFixMode`).
    @exclusivity(unchecked) private var statusMode: FixMode?
    /// The clients whose logs fail now (from the logs' changes): while any does, the status
    /// line's counts of held and lost lines move with each pause.
    @exclusivity(unchecked) private var failingLogs: Set<String> = []

    /// A duty still due after the tick made for it (a save or sync that fails at once) is tried
    /// again this many seconds later, as the 1 s tick did every second.
    static let retryDelay = 1.0

    /// Loads the state, makes the engine, opens every log (see `DaemonCore.init`).
    /// `faces` are handed every effect after the logs and the watchers, in order (`OutputFace`).
    init(
        config: DaemonConfig, seed: UInt64, clock: DaemonClock, sourceName: String, faces: [any OutputFace] = [],
        source: SourceBoard = SourceBoard(), report: AccessLedger? = nil
    ) throws(DaemonCore.StartError) {
        sourceBoard = source
        self.config = config
        self.clock = clock
        self.sourceName = sourceName
        sources = SourceStates(config.sources)
        state = StateKeeper(store: StateStore(path: config.statePath), wall: clock.wall)
        let saved = state.load()
        engine = Engine(settings: config.engineSettings, saved: saved, seed: seed)
        engine.wallClockOffset = clock.wall() - clock.monotonic()
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
        carrier = EffectCarrier(logs: logs, faces: [watchers] + faces)
        rawCaptures = RawCaptures(config: config)
        heartbeats = Heartbeats(config: config, now: clock.monotonic())
        source.capturesRaw = rawCaptures.isWanted
        self.report = report ?? AccessLedger(directory: config.stateDirectory, days: config.reportDays, now: clock.wall())
        for face in carrier.faces { face.attach(self.report) }
        let written = [config.statePath, config.auditLogPath] + logs.clients.compactMap { logs.path(of: $0) }
        for problem in SafeFile.directoryProblems(of: written) { Diagnostics.daemon.warning(problem) }
        effects.reserveCapacity(16)
        // A state directory that cannot be written is known and reported (status, STATUS=,
        // every change's reply) before anyone decides anything (#32).
        if saved == nil {
            // Write the state at once, so the reduced-accuracy secrets just drawn survive a crash.
            state.saveNow(engine.savedState, now: clock.monotonic())
        } else {
            state.checkWritable(engine.savedState)
        }
        _ = state.takeChange()
    }

    // MARK: - Inputs

    /// One event of source `index` (config order).
    func ingest(_ event: SourceEvent, from index: Int = 0) {
        guard !stopped else { return }
        let now = clock.monotonic()
        effects.removeAll(keepingCapacity: true)
        switch event {
        case .fix(var fix):
            // No rearm: the pause that follows a fix sets the tick (`writeBatchedLines`).
            fixesSeen += 1
            fix.device = receiverName(fix.device, from: index)
            engine.handle(.fix(fix), now: now, into: &effects)
            // "logging 3D fixes": the one part of the status line a fix changes without an event.
            let mode = inPlace { $0.lastFixMode }
            if mode != statusMode {
                statusMode = mode
                statusChanged?(now)
            }
        case .state(let sourceState, let detail):
            if sourceState != sources.states[index] {
                // The sources log their own connects and losses; this is the engine's view.
                Diagnostics.daemon.debug("\(sources.sources[index].description): \(sourceState.rawValue): \(detail)")
            }
            // One of several back from connecting: its receivers' TTFF starts over, the others' not.
            if sources.several, sources.states[index] == .connecting, sourceState != .connecting {
                engine.sourceReconnected(receivers: sources.receivers(of: index), now: now)
            }
            // The engine keeps one state, all sources' combined; it hears it when it changes, or
            // from the source that sets it (with one source: every report, as always).
            let combinedState = sources.report(sourceState, from: index)
            if sources.several { engine.setReceiversAtEndOfFile(sources.receiversAtEndOfFile, now: now) }
            guard let combined = combinedState else { return rearm(now: now) }
            engine.handle(.source(combined), now: now, into: &effects)
            carry(now: now)
            return rearm(now: now)
        case .sky(var view):
            // The engine decides nothing on it, so there is nothing to carry: kept for `status`,
            // and handed to the programs of the clients the engine lets see it. Named as its fixes are.
            view.device = receiverName(view.device, from: index)
            let device = view.device ?? ""
            skies[device] = (view, now)
            // The engine is asked only when a face wants the sky, and no list of faces is made.
            var clients: [String]?
            for face in carrier.faces where face.wantsSky {
                let allowed = clients ?? engine.skyClients(device: device, now: now)
                clients = allowed
                if !allowed.isEmpty { face.deliverSky(view, to: allowed) }
            }
            return
        case .outage(let current):
            // Status only, like the sky view.
            sources.outages[index] = current.map { ($0, now) }
            return
        case .raw(let device, let bytes, let time):
            // Kept for the clients that may have full-accuracy fixes of that receiver now, and counted.
            let name = receiverName(device, from: index) ?? device
            for client in rawCaptures.append(bytes, device: name, time: time, clients: engine.rawCaptureClients(device: name)) {
                report.count(client, sink: .raw, accuracy: .full, time: time)
            }
            return
        }
        carry(now: now)
    }

    /// The name the engine knows source `index`'s receiver `device` by (docs/sources.md, "Several
    /// sources"): as the source names it with one source; with several, prefixed with the source's
    /// NAME when another source brought that name first (said once in the journal).
    private func receiverName(_ device: String?, from index: Int) -> String? {
        guard sources.several else { return device }
        let name = sources.receiverName(device, from: index)
        if let renamed = sources.takeRenamed() { Diagnostics.daemon.notice(renamed) }
        return name
    }

    /// The source paused: the lines batched since are written, and synced once the oldest
    /// unsynced line is about a second old (`ClientLogs.writeBatches`); then the tick is set by
    /// what else is due. Returns when the logs are next due (`ClientLogs.nextDeadline`), or the
    /// 5 s without a usable fix or a pinned receiver's failover (`Engine.outageTimer`) if sooner,
    /// which the reader carries in its own wait and the tick leaves to it: at 1 Hz the next
    /// epoch's write syncs the line and moves both on, and the core thread is not woken to stand
    /// by for any of them. A reader whose wait ran out calls again: once the time is up, the
    /// tick is set for now, and it starts the outage. (Every other input sets the tick by the logs too, so a reader that
    /// stops, or loses its device, leaves no line unsynced for long: the source's state change
    /// that follows sets it, and starts the outage itself.)
    func writeBatchedLines() -> Double? {
        guard !stopped else { return nil }
        let now = clock.monotonic()
        // The wall clock may have been set (NTP, gpsd): the saved reduced-accuracy time follows it.
        engine.wallClockOffset = clock.wall() - now
        carrier.logs.writeBatches(now: now)
        rawCaptures.writeBatches()
        announceLogChanges()
        // The lines held and lost that the status line counts: brought up to date once a second.
        if !failingLogs.isEmpty { statusChanged?(now + Self.retryDelay) }
        rearm(now: now, logs: false)
        var due = carrier.logs.nextDeadline(now: now)
        let outage = inPlace { $0.outageTimer }
        if outage > now {
            due = min(due, outage)
        } else if outage.isFinite {
            alarm?(outage)
        }
        return due.isFinite ? due : nil
    }

    /// The tick, which comes when `nextDeadline` does: engine timers, the logs' held lines and
    /// syncs, the audit log, a pending state save, the access report; then sets the next.
    func tick() {
        guard !stopped else { return }
        let now = clock.monotonic()
        engine.wallClockOffset = clock.wall() - now
        effects.removeAll(keepingCapacity: true)
        engine.handle(.tick, now: now, into: &effects)
        carry(now: now)
        heartbeats.beat(now: now, wall: clock.wall(), status: { engine.status(now: now) }, logs: carrier.logs)
        carrier.logs.flushIfDue(now: now)
        rawCaptures.writeBatches()
        announceLogChanges()
        audit.flushIfDue(now: now)
        state.saveIfDue(now: now) { engine.savedState }
        report.flush(now: clock.wall())
        announceStateChange()
        // Timers, held lines' counts: a tick comes only when something is due, so it may always ask.
        statusChanged?(now)
        let next = nextDeadline(now: now)
        alarm?(next > now ? next : now + Self.retryDelay)
    }

    /// When the tick must come next (monotonic seconds; infinity: not until an input): the
    /// earliest of the engine's client timers (`Engine.clientTimer`: Allow Once, temporary full
    /// accuracy, locate timeouts), the logs' syncs and retries (`ClientLogs.nextDeadline`), the
    /// audit log's retries, a pending state save and the access report's next flush. Not the 5 s
    /// without a usable fix nor a pinned receiver's failover, which every fix moves: the reader
    /// stands by for them (`writeBatchedLines`). Nothing due, no tick: the core thread sleeps
    /// (docs/performance.md).
    /// `logs: false` leaves the logs' deadline out (a reader stands by for it).
    func nextDeadline(now: Double, logs: Bool = true) -> Double {
        var next = min(inPlace { $0.clientTimer }, logs ? carrier.logs.nextDeadline(now: now) : .infinity)
        next = min(next, audit.nextDeadline(now: now), state.nextDeadline, heartbeats.nextDeadline)
        let flush = report.nextFlush()
        if flush.isFinite { next = min(next, now + (flush - clock.wall())) }
        return next
    }

    /// Sets the core's tick by `wake` from now on (the daemon's `CoreService`; tests leave it
    /// unset and tick by hand), the access report's first count of a minute included.
    func setAlarm(_ wake: @escaping @Sendable (Double) -> Void) {
        alarm = wake
        let clock = clock
        report.onFirstCount { seconds in wake(clock.monotonic() + seconds) }
        rearm(now: clock.monotonic())
    }

    /// From now on `changed` is told by when systemd's status line should be looked at again
    /// whenever it may say something else (`DaemonCore.onStatusChange`).
    func onStatusChange(_ changed: @escaping @Sendable (Double) -> Void) {
        statusChanged = changed
    }

    /// After an input that may have made something due sooner: the tick comes by then.
    private func rearm(now: Double, logs: Bool = true) {
        guard let alarm, !stopped else { return }
        let next = nextDeadline(now: now, logs: logs)
        if next.isFinite { alarm(next) }
    }

    func reopenLogs() {
        guard !stopped else { return }
        let open = carrier.logs.reopenAll()
        rawCaptures.closeAll()
        announceLogChanges()
        defer { rearm(now: clock.monotonic()) }
        do {
            try audit.reopen()
        } catch {
            Diagnostics.daemon.error("cannot reopen the audit log \(audit.path) (\(error)); still writing the file open before")
        }
        Diagnostics.daemon.notice("reopened \(open) log\(open == 1 ? "" : "s") and the audit log")
    }

    func reload(_ newConfig: DaemonConfig) -> [String] {
        guard !stopped else { return [] }
        let reload = ConfigReload(running: config, reloaded: newConfig)
        let now = clock.monotonic()
        effects = EffectList(engine.handle(reload.effective.engineSettings, now: now))
        carrier.logs.reconfigure(reload.effective)
        rawCaptures.reconfigure(reload.effective)
        heartbeats.reconfigure(reload.effective, now: now)
        sourceBoard.capturesRaw = rawCaptures.isWanted
        config = reload.effective
        carry(now: now)
        rearm(now: now)
        // Clients come and go, and their logs with them: not all of it is an engine event.
        failingLogs = Set(carrier.logs.failing.map(\.client))
        statusChanged?(now)
        return reload.needRestart
    }

    /// Closes everything and saves the state; returns what the state file on disk lacks when
    /// that save failed (`SavedState.undone(bySaved:)`: what a restart will undo), else `nil`.
    @discardableResult
    func shutdown() -> [String]? {
        guard !stopped else { return nil }
        stopped = true
        carrier.logs.closeAll()
        rawCaptures.closeAll()
        audit.close()
        report.flush(now: clock.wall(), all: true)
        let last = engine.savedState
        let saved = state.saveNow(last, now: clock.monotonic())
        watchers.removeAll()
        return saved ? nil : state.status(current: last).unsaved
    }

    func abandon() {
        guard !stopped else { return }
        stopped = true
        carrier.logs.closeAll()
        rawCaptures.closeAll()
        audit.close()
    }

    // MARK: - Queries

    func statusLine() -> String {
        SystemdStatusLine.text(status(now: clock.monotonic()), sourceName: sourceName, stateSave: stateSave)
    }

    func statusReport() -> StatusReport {
        let now = clock.monotonic()
        return StatusReport(
            status: status(now: now), time: clock.wall(), sourceName: sourceName,
            sourceOutage: sources.outage(of: 0, now: now), sourceCounts: sourceBoard.counts, stateSave: stateSave,
            sources: sources.statuses(now: now, counts: sourceBoard.counts(at:)),
            skies: skies.keys.sorted().compactMap { device in
                skies[device].map { SkyReport(view: $0.view, age: max(0, now - $0.at)) }
            },
            sections: StatusSections(carrier.faces.compactMap(\.statusSection)))
    }

    /// How saving the state goes now.
    private var stateSave: StateSaveStatus { state.status(current: engine.savedState) }

    /// The engine's status with what only the daemon knows per client: how its log is written.
    private func status(now: Double) -> EngineStatus {
        var status = engine.status(now: now)
        for index in status.clients.indices {
            status.clients[index].logWrite = carrier.logs.writeStatus(of: status.clients[index].authorization.client)
            status.clients[index].rawLogs = rawCaptures.paths(of: status.clients[index].authorization.client)
        }
        for index in status.receivers.indices {
            status.receivers[index].source = sources.source(of: status.receivers[index].device)
        }
        return status
    }

    var savedState: SavedState { engine.savedState }
    var tally: EffectCarrier.Tally { carrier.tally }
    var stateSaves: Int { state.saves }
    var watcherCount: Int { watchers.count }

    var logPaths: [String: String] {
        var paths: [String: String] = [:]
        for client in carrier.logs.clients {
            if let path = carrier.logs.path(of: client) { paths[client] = path }
        }
        return paths
    }

    // MARK: - Control requests

    /// Answers `request` from `peer`: every face's commands come here, and each is checked here
    /// against the peer's role (`ControlRole`), whatever its face checked before: the user's side
    /// is the operator's, an app's side its own client's (docs/protocol.md, "Roles").
    func handle(_ request: ControlRequest, from peer: ControlPeer) -> ControlReply {
        if let refusal = refusal(request, from: peer) { return refusal }
        switch request.operation {
        case .hello:
            let clients = engine.settings.clients.map {
                HelloReply.Client(name: $0.name, log: carrier.logs.path(of: $0.name))
            }
            return .hello(id: request.id, HelloReply(clients: clients))
        case .status(let client):
            let report = disclosure(to: peer).status(statusReport())
            guard let client else { return .status(id: request.id, report) }
            guard let one = report.only(client: client) else {
                return .unknownClient(id: request.id, client: client, known: engine.settings.clients.map(\.name))
            }
            return .status(id: request.id, one)
        case .prompts:
            return .prompts(id: request.id, engine.prompts)
        case .report(let client, let since):
            let known = engine.settings.clients.map(\.name)
            if let client, !known.contains(client) {
                return .unknownClient(id: request.id, client: client, known: known)
            }
            // The operator sees every client, an app its own, anyone else none.
            let mine = Set(peer.apps)
            let now = clock.wall()
            let result = report.report(since: now - (since ?? Double(config.reportDays) * 86_400), now: now) { name in
                (client == nil || name == client) && (peer.mayChange || mine.contains(name))
            }
            return .ok(id: request.id, fields: result.json.objectValue ?? [])
        case .watch:
            return .error(
                id: request.id, code: CommandError.Code.invalidArgument.rawValue,
                message: "watch turns the connection into an event stream; the server handles it")
        case .command(.stop(let client)) where !peer.mayChange && holders.updating(client) > 0:
            // An app's own `stop` ends nothing other faces hold (docs/authorization.md, "Who holds a client").
            let count = holders.updating(client)
            let message = "\(client) keeps updating: \(count) holder\(count == 1 ? "" : "s") of its faces (programs, GeoClue clients) hold\(count == 1 ? "s" : "") it"
            return ControlReply(id: request.id, result: .success(CommandOutcome(changed: false, message: message)))
        case .command(let command):
            return run(command, request, from: peer).reply
        }
    }

    /// The `not-authorized` reply when `peer`'s role may not send `request`, else `nil`.
    private func refusal(_ request: ControlRequest, from peer: ControlPeer) -> ControlReply? {
        guard let refusal = peer.role.refusal(request, group: config.socketGroup) else { return nil }
        Diagnostics.daemon.info("\(peer) may not send \(request.json.serialized): \(refusal.message)")
        return refusal.reply
    }

    /// Runs an engine command (already checked against the peer's role); the reply, and whether it changed anything.
    private func run(_ command: Command, _ request: ControlRequest, from peer: ControlPeer) -> (reply: ControlReply, changed: Bool) {
        guard !stopped else {
            return (
                .error(
                    id: request.id, code: ControlServer.shuttingDownCode,
                    message: "locationd is stopping; try again when it has restarted"), false
            )
        }
        let now = clock.monotonic()
        // After the audit line too: one that could not be written is retried by the tick.
        defer { rearm(now: now) }
        let before = AuditRecord.state(of: command, in: engine.status(now: now))
        let result = engine.handle(command, now: now)
        effects = EffectList(result.effects)
        carry(now: now)
        let reply = ControlReply(id: request.id, result: result.outcome)
        guard case .success(let outcome) = result.outcome else { return (reply, false) }
        let save = stateSave
        if outcome.changed {
            Diagnostics.daemon.notice("\(peer): \(ControlRequest(.command(command)).json.serialized): \(outcome.message)")
            if let warning = save.warning { Diagnostics.daemon.warning("\(outcome.message): \(warning)") }
            audit.record(
                AuditRecord(
                    time: clock.wall(), peer: peer, request: request, before: before,
                    after: AuditRecord.state(of: command, in: engine.status(now: now))))
        }
        return (reply.noting(save), outcome.changed)
    }

    // MARK: - Who holds a client

    /// `holder` holds `client` for its app `peer` (`ClientHolders`): the first holder of any face
    /// begins the session, the first wanting updates starts them, as `session CLIENT begin` and
    /// `start CLIENT` from the peer (checked, audited and watched as any). The reply is the last
    /// command's, or says who holds the client when nothing was to be done.
    func hold(_ client: String, by holder: ClientHolder, as peer: ControlPeer, id: JSONValue? = nil) -> ControlReply {
        let begin = ControlRequest(id: id, .command(.session(client: client, inUse: true)))
        if let refusal = refusal(begin, from: peer) { return refusal }
        guard engine.authorization(of: client) != nil else {
            return .unknownClient(id: id, client: client, known: engine.settings.clients.map(\.name))
        }
        let due = holders.hold(client, by: holder)
        var reply: ControlReply?
        if due.session {
            let (began, changed) = run(.session(client: client, inUse: true), begin, from: peer)
            holders.began(client, changed: changed)
            reply = began
        }
        if due.updates {
            let (started, changed) = run(.start(client: client), ControlRequest(id: id, .command(.start(client: client))), from: peer)
            holders.started(client, changed: changed)
            if reply?.error == nil { reply = started }
        }
        return reply ?? heldReply(client, id: id)
    }

    /// `holder` no longer holds `client`: the last holder of every face gone ends the session the
    /// registry began, the last wanting updates stops the updates it started, as `session CLIENT
    /// end` and `stop CLIENT` from the peer.
    func release(_ client: String, by holder: ClientHolder, as peer: ControlPeer, id: JSONValue? = nil) -> ControlReply {
        let end = ControlRequest(id: id, .command(.session(client: client, inUse: false)))
        if let refusal = refusal(end, from: peer) { return refusal }
        let due = holders.release(client, by: holder)
        var reply: ControlReply?
        if due.updates { reply = run(.stop(client: client), ControlRequest(id: id, .command(.stop(client: client))), from: peer).reply }
        if due.session {
            let ended = run(.session(client: client, inUse: false), end, from: peer).reply
            if reply?.error == nil { reply = ended }
        }
        return reply ?? heldReply(client, id: id)
    }

    /// How many holders `client` has, of every face.
    func holderCount(of client: String) -> Int { holders.count(of: client) }

    /// `client`'s own reduced position for `fix` (`Engine.reducedPosition`), for a face that
    /// narrows its own deliveries to reduced accuracy; `fix` nil: the one of the interval running now.
    func reducedPosition(of client: String, for fix: Fix?) -> Fix? {
        guard !stopped else { return nil }
        return engine.reducedPosition(of: client, for: fix, now: clock.monotonic())
    }

    private func heldReply(_ client: String, id: JSONValue?) -> ControlReply {
        let count = holders.count(of: client)
        let message =
            count == 0
            ? "\(client): nothing held it; its session and updates are as they were"
            : "\(client) stays as it is: \(count) holder\(count == 1 ? "" : "s") of its faces hold\(count == 1 ? "s" : "") it"
        return ControlReply(id: id, result: .success(CommandOutcome(changed: false, message: message)))
    }

    func watch(_ request: ControlRequest, client: String?, from peer: ControlPeer, sink: any WatchSink) -> WatcherID? {
        if let client, engine.authorization(of: client) == nil {
            let reply = ControlReply.unknownClient(id: request.id, client: client, known: engine.settings.clients.map(\.name))
            _ = sink.send(Array(reply.line().utf8))
            return nil
        }
        let withheld = disclosure(to: peer).withheldNote(group: config.socketGroup, watching: client)
        let reply = ControlReply.watching(id: request.id, client: client, withheld: withheld)
        guard sink.send(Array(reply.line().utf8)) else { return nil }
        let snapshot = ControlEvent.snapshot(
            source: engine.status(now: clock.monotonic()).source, authorizations: engine.authorizations,
            prompts: engine.prompts, failingLogs: carrier.logs.failing, stateSave: stateSave, time: clock.wall(),
            client: client)
        for event in snapshot {
            guard sink.send(event.line()) else { return nil }
        }
        return watchers.add(client: client, sink: sink, peer: peer)
    }

    /// What `peer` may see now: the one read-tier decision for status and
    /// watch (docs/protocol.md § Read tiers); the watchers' broadcast filters
    /// through the same `Disclosure`.
    private func disclosure(to peer: ControlPeer) -> Disclosure {
        peer.disclosure(services: engine.servicesOn)
    }

    /// Withdraws `client`'s pending prompt: the app that asked went away (`Engine.withdrawPrompt`).
    func withdrawPrompt(of client: String, reason: String) {
        guard !stopped else { return }
        let now = clock.monotonic()
        effects = EffectList(engine.withdrawPrompt(of: client, reason: reason, now: now))
        carry(now: now)
        rearm(now: now)
    }

    /// A program-socket event (a refused peer) for the audit log.
    func auditProgram(_ record: AuditRecord) {
        guard !stopped else { return }
        audit.record(record)
        rearm(now: clock.monotonic())
    }

    func unwatch(_ watcher: WatcherID) {
        watchers.remove(watcher)
    }

    func announce(_ event: ControlEvent) {
        guard !stopped else { return }
        watchers.broadcast([event], services: engine.servicesOn)
    }

    /// `read` of the engine where it lies. A getter of `Engine` (LocationCore's, not inlined here)
    /// called on this class's stored property is handed a copy of the whole engine: every array,
    /// dictionary and set in it retained and then released, some 80 reference counts and as many
    /// cache lines written, at each pause of a source (docs/performance.md, "The engine read in
    /// place"). Lent through `inout`, it is read in place.
    private func inPlace<T>(_ read: (inout Engine) -> T) -> T {
        read(&engine)
    }

    // MARK: - Effects

    private func carry(now: Double) {
        watchers.reportTime = clock.wall()
        watchers.services = inPlace { $0.servicesOn }
        carrier.carry(effects, eventTime: clock.wall())
        if carrier.takePersistRequest() {
            state.changed(now: now) { engine.savedState }
        }
        // What the watchers were told of (a source state, an authorization, a prompt, a use) the
        // status line may say too; a fix that changed nothing carries no event.
        if !effects.others.isEmpty, effects.others.contains(where: Self.isEvent) { statusChanged?(now) }
        announceLogChanges()
        announceStateChange()
    }

    private static func isEvent(_ effect: Effect) -> Bool {
        if case .event = effect { true } else { false }
    }

    /// Tells the watchers, and the status line, when saving the state starts to fail or works
    /// again (`state` events).
    private func announceStateChange() {
        guard state.takeChange() else { return }
        statusChanged?(clock.monotonic())
        guard !watchers.isEmpty else { return }
        watchers.broadcast([ControlEvent(state: stateSave, time: clock.wall())], services: engine.servicesOn)
    }

    /// Tells the watchers of each log that started to fail or works again (`log` events), and
    /// the status line; the changes are taken whether or not anyone watches.
    private func announceLogChanges() {
        let changes = carrier.logs.takeChanges()
        guard !changes.isEmpty else { return }
        for change in changes {
            if change.status.failing { failingLogs.insert(change.client) } else { failingLogs.remove(change.client) }
        }
        statusChanged?(clock.monotonic())
        guard !watchers.isEmpty else { return }
        let time = clock.wall()
        watchers.broadcast(changes.map { ControlEvent(log: $0, time: time) }, services: engine.servicesOn)
    }
}
