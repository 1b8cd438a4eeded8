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
///
/// By job, one file each: this one what it holds and how effects are carried; `+Inputs` a
/// source's events and pauses, reopening, reload and stop; `+Deadlines` the tick and when it
/// must come; `+Control` control requests, who holds a client, watchers and the audit log;
/// `+Status` the status line and the `status` reply.
final class EngineOwner {
    /// The configuration in force.
    var config: DaemonConfig
    // `@exclusivity(unchecked)` here: what the fix path mutates on every fix, touched only by
    // its one owner (behind DaemonCore's lock, or a replay) and never re-entrantly, so the
    // runtime's per-access check bought nothing and cost about a tenth of the instructions
    // per fix (docs/ARCHITECTURE.md, "Threads and who owns what"; docs/performance.md).
    /// Fixes the source has reported (any mode).
    @exclusivity(unchecked) var fixesSeen = 0

    let sourceName: String
    @exclusivity(unchecked) var engine: Engine
    let carrier: EffectCarrier
    let state: StateKeeper
    let audit: AuditLog
    let clock: DaemonClock
    @exclusivity(unchecked) var effects = EffectList()
    /// The watchers: a face of the carrier, and the control plane's event stream.
    let watchers = WatcherList()
    /// Every source and what it last said, in config order (docs/sources.md, "Several sources").
    var sources: SourceStates
    /// Each receiver's latest sky view and when it arrived (monotonic), by device ("" for
    /// a receiver the source does not name), for `status`.
    var skies: [String: (view: SkyView, at: Double)] = [:]
    var stopped = false
    /// Who holds each client, every face's holders (`hold`, `release`).
    var holders = ClientHolders()
    let sourceBoard: SourceBoard
    /// The clients' raw captures (`raw_log`).
    let rawCaptures: RawCaptures
    /// The clients' heartbeat records (`heartbeat`).
    let heartbeats: Heartbeats
    /// The access report's counts.
    let report: AccessLedger
    /// Sets the core's tick to come by a time (monotonic seconds; `DaemonCore.setAlarm`), or nil.
    var alarm: (@Sendable (Double) -> Void)?
    /// Told by when (monotonic seconds) systemd's status line should be looked at again, as it
    /// may say something else (`DaemonCore.onStatusChange`), or nil.
    var statusChanged: (@Sendable (Double) -> Void)?
    /// The mode of the fixes as the status line last heard of it (`Engine.lastFixMode`).
    @exclusivity(unchecked) var statusMode: FixMode?
    /// The clients whose logs fail now (from the logs' changes): while any does, the status
    /// line's counts of held and lost lines move with each pause.
    @exclusivity(unchecked) var failingLogs: Set<String> = []

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

    /// `read` of the engine where it lies. A getter of `Engine` (LocationCore's, not inlined here)
    /// called on this class's stored property is handed a copy of the whole engine: every array,
    /// dictionary and set in it retained and then released, some 80 reference counts and as many
    /// cache lines written, at each pause of a source (docs/performance.md, "The engine read in
    /// place"). Lent through `inout`, it is read in place.
    func inPlace<T>(_ read: (inout Engine) -> T) -> T {
        read(&engine)
    }

    // MARK: - Effects

    func carry(now: Double) {
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
    func announceStateChange() {
        guard state.takeChange() else { return }
        statusChanged?(clock.monotonic())
        guard !watchers.isEmpty else { return }
        watchers.broadcast([ControlEvent(state: stateSave, time: clock.wall())], services: engine.servicesOn)
    }

    /// Tells the watchers of each log that started to fail or works again (`log` events), and
    /// the status line; the changes are taken whether or not anyone watches.
    func announceLogChanges() {
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
