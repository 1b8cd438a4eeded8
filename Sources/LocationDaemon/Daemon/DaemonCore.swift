import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem
import Synchronization

/// The one owner of the authorization engine while the daemon runs: an
/// `EngineOwner` behind a lock. Every input takes the lock, runs the engine,
/// carries out its effects and lets go, on the caller's thread:
///
/// * a fix or source state on the reader thread that read it (`ingest`, the
///   source's `SourceSink`), from the epoch to the log line — no queue, no
///   thread hop per fix;
/// * the tick (only when something is due: `tick()`), control requests and
///   watchers, reloads and shutdown on the core thread (`CoreExecutor`),
///   never on the cooperative pool: a state save that blocks holds up only
///   these.
///
/// Effects go through the `EffectCarrier` that replay uses too; `state.json`
/// is saved through a `StateKeeper` (debounced, always at shutdown); every
/// accepted change through the socket is appended to `audit.jsonl` with the
/// state it changed, before and after (`AuditRecord.state(of:in:)`); watchers
/// are a `WatcherList`; systemd's status line is `SystemdStatusLine`; what a
/// reload may change is `ConfigReload`.
///
/// Time: the engine's `now` is the monotonic clock; events and status
/// replies are stamped with the wall clock.
public final class DaemonCore: ControlHandler, Sendable {
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

    /// The sources as people name them: `gpsd 127.0.0.1:2947`, `nmea /dev/ttyACM0`, or with several
    /// `gpsd 127.0.0.1:2947 (default), nmea /dev/ttyUSB1 (gnss)` (`NamedSource.names`).
    public let sourceName: String
    /// The sources' counts, for `status` (filled by each `SourceService`).
    public let sourceBoard: SourceBoard
    /// The faces (`Face`, `FaceList`), in order: their deliveries, the clients they make.
    let faces: [any Face]
    let owner: Mutex<EngineOwner>
    /// The configuration as the file says (start, the last SIGHUP), before the faces' clients are
    /// laid over it (`DaemonCore+Faces.swift`).
    let file: Mutex<DaemonConfig>
    private let lostAtStop = Mutex<[String]?>(nil)

    /// Loads the state (setting a corrupt file aside), makes the engine and
    /// opens every client's log and the audit log. `config` is the file's: each of `faces` lays
    /// the clients it makes over it (`Face.overlay`) and is handed the engine's effects after the
    /// logs and the watchers, in order (`OutputFace`). `seed` seeds the
    /// reduced-accuracy secrets of clients without saved state (pass
    /// `randomSeed()`). Throws when a log cannot be opened: the daemon cannot
    /// do its job then.
    init(config: DaemonConfig, seed: UInt64, clock: DaemonClock = .system, faces: [any Face]) throws(StartError) {
        let name = NamedSource.names(config.sources)
        sourceName = name
        let source = SourceBoard()
        sourceBoard = source
        self.faces = faces
        file = Mutex(config)
        let ledger = AccessLedger(directory: config.stateDirectory, days: config.reportDays, now: clock.wall())
        owner = Mutex(
            try EngineOwner(
                config: faces.overlay(config), seed: seed, clock: clock, sourceName: name,
                faces: faces.compactMap(\.output), source: source, report: ledger))
    }

    /// A core with no face but the logs and the watchers (tests, tools).
    public convenience init(config: DaemonConfig, seed: UInt64, clock: DaemonClock = .system) throws(StartError) {
        try self.init(config: config, seed: seed, clock: clock, faces: [])
    }

    /// 64 random bits from the kernel (`getrandom`), for `init(config:seed:)`.
    public static func randomSeed() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    /// `gpsd 127.0.0.1:2947`, `gpsd [::1]:2947`, `nmea /dev/ttyACM0`.
    public static func name(of source: SourceConfig) -> String {
        NamedSource(source).description
    }

    // MARK: - Inputs

    /// One event from source `index` (config order: `[source]` first), carried out on the
    /// caller's thread.
    public func ingest(_ event: SourceEvent, from index: Int = 0) {
        owner.withLock { $0.ingest(event, from: index) }
    }

    /// The source paused (its reader is about to wait): writes the log lines
    /// batched since (`fsync = interval`), so a live fix reaches its log at
    /// once while a burst still goes out in one write, and syncs the log once
    /// its oldest unsynced line is about a second old — on this thread, under
    /// the lock, on the log's own descriptor (`LogWriter.flushIfDue`): at one
    /// epoch a second the epoch's wake-up, read and write, and every second
    /// epoch the sync of two, are all the system calls it costs. Then sets
    /// the tick by what else is due (`setAlarm`), and returns by when the
    /// reader must call it again for a line left unsynced (its poll's
    /// timeout, `SourceSink.idle`): the core thread is not woken for it.
    @discardableResult
    public func writeBatchedLines() -> Double? {
        owner.withLock { $0.writeBatchedLines() }
    }

    /// The tick: engine timers, held log lines and `fsync = interval`'s
    /// syncs, a pending state save, the access report. It comes only when
    /// one of them is due (`nextDeadline`, through `setAlarm`), not every
    /// second: with fixes coming and nothing else pending, the core thread
    /// sleeps while each reader syncs what it wrote.
    public func tick() {
        owner.withLock { $0.tick() }
    }

    /// From now on the core says by when its next tick must come: `wake(time)`
    /// (monotonic seconds) after every input that may have made something due
    /// sooner, and after each tick. `CoreService` passes its alarm's `due(by:)`.
    public func setAlarm(_ wake: @escaping @Sendable (Double) -> Void) {
        owner.withLock { $0.setAlarm(wake) }
    }

    /// From now on `changed(time)` is called whenever systemd's status line (`statusLine()`)
    /// may say something else, `time` (monotonic seconds) being by when it should be looked at:
    /// now after an input that carried an engine event (what the watchers hear of: a source
    /// state, an authorization, a prompt, a use), a log or the state save that starts to fail
    /// or works again, a change of the fixes' mode, a reload, a tick; a second after a pause
    /// while a log fails (its counts of held and lost lines); never for a fix that changes none
    /// of these. It is called under the lock, on the thread of the input, so it only notes the
    /// change. `NotifierService` passes its alarm's `due(by:)`.
    public func onStatusChange(_ changed: @escaping @Sendable (Double) -> Void) {
        owner.withLock { $0.onStatusChange(changed) }
    }

    /// When the next tick must come (monotonic seconds; infinity: not until an input).
    func nextDeadline(now: Double) -> Double {
        owner.withLock { $0.nextDeadline(now: now) }
    }

    /// SIGHUP, first half: reopens every log (logrotate has renamed them).
    public func reopenLogs() {
        owner.withLock { $0.reopenLogs() }
    }

    /// SIGHUP, second half: takes a reloaded configuration, the faces' clients laid over it.
    /// The engine keeps every remaining client's state; logs follow the new paths. Keys that
    /// only a restart can change (socket, socket_group, source, state_dir, and each face's:
    /// `ConfigReload`) keep their running values; their names come back so the caller can
    /// say a restart is needed.
    @discardableResult
    public func reload(_ newConfig: DaemonConfig) -> [String] {
        file.withLock { file in
            file = newConfig
            return owner.withLock { $0.reload(faces.overlay(newConfig)) }
        }
    }

    /// Shutdown: writes and syncs every log, saves the state, closes the logs.
    /// Later inputs are ignored. When the state could not be saved, `lostAtShutdown` says what
    /// a restart will undo.
    public func shutdown() {
        let lost = owner.withLock { $0.shutdown() }
        if let lost { lostAtStop.withLock { $0 = lost } }
    }

    /// After `shutdown()`: `nil` when the state was saved; otherwise what the state file lacks,
    /// one phrase each (empty: no decision, only the reduced-accuracy clocks).
    public var lostAtShutdown: [String]? { lostAtStop.withLock { $0 } }

    /// Start-up failed after the core was made: closes the logs without saving
    /// the state (nothing changed it yet, and another daemon may own the file).
    public func abandon() {
        owner.withLock { $0.abandon() }
    }

    // MARK: - Queries

    /// The configuration in force (a reload replaces it, less the keys that need a restart).
    public var config: DaemonConfig { owner.withLock { $0.config } }

    /// Fixes the source has reported (any mode).
    public var fixesSeen: Int { owner.withLock { $0.fixesSeen } }

    /// One line for systemd's `STATUS=`: what is being logged and how the source is.
    public func statusLine() -> String {
        owner.withLock { $0.statusLine() }
    }

    /// The engine's status, as `status` replies carry it.
    public func statusReport() -> StatusReport {
        owner.withLock { $0.statusReport() }
    }

    /// What the engine would save now.
    public var savedState: SavedState { owner.withLock { $0.savedState } }

    /// Deliveries, errors and prompts carried out since start.
    public var tally: EffectCarrier.Tally { owner.withLock { $0.tally } }

    /// State saves written since start.
    public var stateSaves: Int { owner.withLock { $0.stateSaves } }

    /// The log path of each client that has one, by name.
    public var logPaths: [String: String] { owner.withLock { $0.logPaths } }

    /// Watchers registered now.
    public var watcherCount: Int { owner.withLock { $0.watcherCount } }

    // MARK: - ControlHandler

    /// Answers `hello`, `status`, `prompts` and engine commands.
    public func handle(_ request: ControlRequest, from peer: ControlPeer) -> ControlReply {
        owner.withLock { $0.handle(request, from: peer) }
    }

    /// `holder` holds `client` for its app `peer`: the first holder of any face begins the
    /// session and starts the updates (`ClientHolders`, docs/authorization.md "Who holds a client").
    @discardableResult
    public func hold(_ client: String, by holder: ClientHolder, as peer: ControlPeer, id: JSONValue?) -> ControlReply {
        owner.withLock { $0.hold(client, by: holder, as: peer, id: id) }
    }

    /// `holder` no longer holds `client`: the last holder of every face gone ends what the first began.
    @discardableResult
    public func release(_ client: String, by holder: ClientHolder, as peer: ControlPeer, id: JSONValue?) -> ControlReply {
        owner.withLock { $0.release(client, by: holder, as: peer, id: id) }
    }

    /// How many holders `client` has now, of every face.
    func holderCount(of client: String) -> Int {
        owner.withLock { $0.holderCount(of: client) }
    }

    /// `client`'s own reduced position for `fix`, for a face that narrows its own deliveries
    /// (`Engine.reducedPosition`); `fix` nil: the one of the interval running now, if any.
    func reducedPosition(of client: String, for fix: Fix?) -> Fix? {
        owner.withLock { $0.reducedPosition(of: client, for: fix) }
    }

    /// Registers a watcher: the reply, the initial state, then every matching event.
    public func watch(
        _ request: ControlRequest, client: String?, from peer: ControlPeer, sink: any WatchSink
    ) -> WatcherID? {
        owner.withLock { $0.watch(request, client: client, from: peer, sink: sink) }
    }

    /// Forgets a watcher whose connection closed.
    public func unwatch(_ watcher: WatcherID) {
        owner.withLock { $0.unwatch(watcher) }
    }

    /// Tells every watcher of `event`'s client about it (a face's news: a broker coming or going).
    public func announce(_ event: ControlEvent) {
        owner.withLock { $0.announce(event) }
    }
}
