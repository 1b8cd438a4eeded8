import LocationConfig
import LocationProtocol
import LocationValues

/// The authorization engine (docs/authorization.md): a pure state machine. Every input
/// carries `now` and returns the effects to carry out; it reads no clock,
/// does no IO and holds no global state. Randomness comes only from the
/// seeded per-client sources in the saved state.
///
/// A client's permission is a `Grant`, an `Accuracy` and at most one
/// `PendingPrompt`, enums whose cases carry exactly what they need, so no
/// impossible combination can be built. There is one `handle(_:now:)` per
/// input kind — `EngineInput` (fix, source, tick), `Command`, and
/// `EngineSettings` (a reload) — and every one runs the same way: timers that
/// are due fire first, then the input, then `finish`, which (in config order)
/// closes prompts the change made moot, emits an `authorization` event for
/// each client whose (effective status, once, provisional, accuracy) really
/// changed, ends runs, and tells clients about a receiver outage; `persist`
/// comes last, when `savedState` changed. The rules that end temporary grants
/// are AllowOnce.swift, TemporaryFullAccuracy.swift and ProvisionalAlways.swift.
/// See docs/authorization.md.
public struct Engine: Sendable {
    /// The settings in force (clients deduplicated by name, first wins).
    public private(set) var settings: EngineSettings
    var clients: [ClientState]
    /// The clients' names in config order: what `EffectList` deliveries refer to.
    var clientNames: [String]
    var index: [String: Int]
    var services: Bool
    let seed: UInt64
    /// Saved states of clients the configuration does not name (yet): kept as they were and
    /// written back, so a client configured later (a GeoClue app whose row of
    /// `geoclue-apps.json` could not be read, a reload) starts from its decisions.
    var unconfigured: [SavedClientState] = []

    // Source and outage bookkeeping (`now` seconds).
    var source: SourceState = .connecting
    var lastFix: Fix?
    var lastFixArrival: Double?
    /// The first `now` the engine saw: the 5 s no-fix clock starts there.
    var startedAt: Double?
    var lastUsableAt: Double?
    var outage = false
    /// When the 5 s without a usable fix is up (`infinity` during an outage or before any input).
    var outageDeadline = Double.infinity
    /// The earliest client timer (locate timeout, Allow Once, temporary full accuracy); may be early, never late.
    var clientDeadline = Double.infinity
    /// The earliest pinned receiver's failover (Engine+PinnedOutage.swift): its receiver's usable
    /// fixes move it on, and each one sets it again, so it is never early while they come (the
    /// readers stand by for it: `outageTimer`).
    var pinnedDeadline = Double.infinity
    /// Whether any client is pinned to a receiver (`receiver = DEVICE`): only then does a usable
    /// fix set `pinnedDeadline` again.
    var anyPinned = false
    /// Trigonometry of the last fix's position, for the next one's ECEF point.
    var latitudeTrig = IncrementalSinCos()
    var longitudeTrig = IncrementalSinCos()
    /// Set by the fix path when it changed saved state (reduced-accuracy secret, upgrade prompt shown).
    var persistPending = false
    /// Each receiver's time line: epochs, jumps back (step 4).
    var timeBases = ReceiverTimeBases()
    /// The receiver `best` clients follow (docs/sources.md, "Several receivers").
    var receivers: ReceiverChoice

    /// Wall-clock UTC seconds minus `now`: how the owner's monotonic `now` maps to the wall clock,
    /// which only the saved reduced-accuracy interval needs (it must survive restarts). 0 when `now`
    /// already counts UTC seconds (a replay's clock built from fix times, tests); the daemon sets it.
    public var wallClockOffset = 0.0
    /// The receivers whose own source is a file followed past its end while others go on (several
    /// sources; `setReceiversAtEndOfFile`): a pinned client's silent receiver there is no outage (#32).
    public internal(set) var receiversAtEndOfFile: Set<String> = []
    /// When each receiver's source last left the end of its file: its silence counts from then.
    var resumedAt: [String: Double] = [:]

    /// Seconds without a usable fix before clients are told `location-unknown`.
    public static let outageDelay = 5.0

    /// An engine for `settings`, restoring `saved` when given (clients it does
    /// not name start from their config values). `seed` seeds the
    /// reduced-accuracy offsets of clients that have no saved state yet; the
    /// daemon passes a fresh random word, tests a fixed one.
    public init(settings: EngineSettings, saved: SavedState?, seed: UInt64) {
        self.seed = seed
        receivers = ReceiverChoice(failover: settings.failover)
        services = saved?.services ?? settings.services
        let (unique, index) = Self.deduplicated(settings.clients)
        var settings = settings
        settings.clients = unique
        self.settings = settings
        self.index = index
        clientNames = unique.map(\.name)
        clients = unique.map { client in
            ClientState(
                settings: client, restricted: settings.restricted.contains(client.name), saved: saved?.client(client.name),
                seed: seed)
        }
        var seen = Set(index.keys)
        unconfigured = (saved?.clients ?? []).filter { seen.insert($0.name).inserted }
    }

    // MARK: Inputs

    /// Feeds a fix, a source state or a tick at time `now`; returns what to carry out.
    public mutating func handle(_ input: EngineInput, now: Double) -> [Effect] {
        var effects = EffectList()
        handle(input, now: now, into: &effects)
        return effects.effects
    }

    /// `handle(_:now:)` appending to a list the caller owns and reuses, so the fix path
    /// allocates nothing even when it delivers, and a delivery costs a few bytes per client.
    public mutating func handle(_ input: EngineInput, now: Double, into effects: inout EffectList) {
        noteTime(now)
        effects.use(names: clientNames)
        switch input {
        case .fix(let fix):
            handleFix(fix, now: now, effects: &effects)
        case .source(let state):
            let before = snapshot()
            runTimers(now: now, effects: &effects)
            setSource(state, now: now, effects: &effects)
            finish(before, now: now, effects: &effects)
        case .tick:
            if timersDue(now) {
                let before = snapshot()
                runTimers(now: now, effects: &effects)
                finish(before, now: now, effects: &effects)
            }
        }
    }

    /// Carries out a command from the control socket (permissions already checked by the caller).
    public mutating func handle(_ command: Command, now: Double) -> CommandResult {
        var effects = EffectList()
        effects.use(names: clientNames)
        noteTime(now)
        let before = snapshot()
        runTimers(now: now, effects: &effects)
        let outcome = execute(command, now: now, effects: &effects)
        finish(before, now: now, effects: &effects)
        return CommandResult(outcome: outcome, effects: effects.effects)
    }

    /// Takes a reloaded config (SIGHUP): clients that remain keep their state
    /// (settings such as the distance filter take effect, the `authorization`,
    /// `precise`, `updating` and `in_use` first-start values do not), new
    /// clients start from their config, or from the saved state the start found
    /// for them (`unconfigured`), removed ones are dropped (their prompts
    /// close). The Location Services switch keeps its current position.
    public mutating func handle(_ settings: EngineSettings, now: Double) -> [Effect] {
        var effects = EffectList()
        effects.use(names: clientNames)
        noteTime(now)
        let before = snapshot()
        runTimers(now: now, effects: &effects)
        let (unique, newIndex) = Self.deduplicated(settings.clients)
        for old in clients where newIndex[old.settings.name] == nil {
            if let prompt = old.prompt { effects.append(.event(.prompt(prompt.prompt(client: old.settings.name), open: false))) }
        }
        var newClients: [ClientState] = []
        newClients.reserveCapacity(unique.count)
        for client in unique {
            let restricted = settings.restricted.contains(client.name)
            if let i = index[client.name] {
                var kept = clients[i]
                kept.configure(client, restricted: restricted)
                newClients.append(kept)
            } else {
                let kept = unconfigured.firstIndex { $0.name == client.name }.map { unconfigured.remove(at: $0) }
                newClients.append(ClientState(settings: client, restricted: restricted, saved: kept, seed: seed))
            }
        }
        receivers.failover = settings.failover
        var kept = settings
        kept.clients = unique
        kept.services = self.settings.services
        self.settings = kept
        clients = newClients
        index = newIndex
        clientNames = unique.map(\.name)
        effects.use(names: clientNames)
        finish(before, now: now, effects: &effects)
        return effects.effects
    }

    /// The clients with duplicate names removed (the first wins), and their positions by name.
    static func deduplicated(_ clients: [ClientSettings]) -> ([ClientSettings], [String: Int]) {
        var unique: [ClientSettings] = []
        var index: [String: Int] = [:]
        for client in clients where index[client.name] == nil {
            index[client.name] = unique.count
            unique.append(client)
        }
        return (unique, index)
    }

    // MARK: Queries

    /// Every client's authorization, in config order: a new watcher's initial state.
    public var authorizations: [ClientAuthorization] {
        clients.indices.map { authorization(of: $0) }
    }

    /// The pending prompts, in config order.
    public var prompts: [Prompt] {
        clients.compactMap { c in c.prompt?.prompt(client: c.settings.name) }
    }

    /// What `state.json` holds.
    public var savedState: SavedState {
        let configured = clients.map(\.saved)
        return SavedState(services: services, clients: unconfigured.isEmpty ? configured : configured + unconfigured)
    }

    /// One client's authorization as clients and `status` see it.
    public func authorization(of client: String) -> ClientAuthorization? {
        index[client].map { authorization(of: $0) }
    }

    // MARK: Effective status

    func authorization(of i: Int) -> ClientAuthorization {
        let c = clients[i]
        let stored = c.grant.status
        var status = stored
        var reason: EffectiveReason?
        // Policy wins over the services switch: a locked client reads `restricted` in every case.
        if c.restricted {
            status = .restricted
            reason = .restricted
        } else if !services {
            status = .never
            reason = .servicesOff
        }
        // Flags describe a grant; while the grant is overridden they are hidden (and come back with it).
        return ClientAuthorization(
            client: c.settings.name, status: status, stored: stored, once: reason == nil && c.grant.isOnce,
            provisional: reason == nil && c.grant.isProvisional, accuracy: c.accuracy.authorization, reason: reason)
    }

    /// The effective status alone.
    func effectiveStatus(_ i: Int) -> AuthorizationStatus {
        if clients[i].restricted { return .restricted }
        if !services { return .never }
        return clients[i].grant.status
    }

    /// Delivery steps 1–2 (docs/authorization.md §4): services on and the effective status allows delivery now.
    @inline(__always)
    func allowsDelivery(_ i: Int) -> Bool {
        authorizationRefusal(i) == nil
    }

    /// The first of delivery steps 1–2 that refuses delivery now, or `nil`.
    @inline(__always)
    func authorizationRefusal(_ i: Int) -> DropReason? {
        guard services else { return .servicesOff }
        guard !clients[i].restricted else { return .notAuthorized }
        return clients[i].grant.deliveryRefusal(inUse: clients[i].inUse)
    }

    /// The first of delivery steps 1–3 that refuses delivery now, or `nil`.
    @inline(__always)
    func eligibilityRefusal(_ i: Int) -> DropReason? {
        if let refusal = authorizationRefusal(i) { return refusal }
        return clients[i].updating || clients[i].locate != nil ? nil : .notUpdating
    }

    /// Delivery steps 1–3 (docs/authorization.md §4).
    @inline(__always)
    func isEligible(_ i: Int) -> Bool {
        eligibilityRefusal(i) == nil
    }

    // MARK: The shared frame of every input

    struct Snapshot {
        var authorizations: [ClientAuthorization]
        var saved: SavedState
    }

    func snapshot() -> Snapshot {
        Snapshot(authorizations: authorizations, saved: savedState)
    }

    mutating func noteTime(_ now: Double) {
        if startedAt == nil, now.isFinite {
            startedAt = now
            outageDeadline = now + Self.outageDelay
            // A pinned receiver's silence counts from here (Engine+PinnedOutage.swift).
            recomputeClientDeadline()
        }
    }

    /// The pass that ends every slow-path input (see the type's comment). With
    /// `deferPersist` the caller emits `persist` itself at the very end (the fix path, whose
    /// deliveries follow).
    mutating func finish(_ before: Snapshot, now: Double, effects: inout EffectList, deferPersist: Bool = false) {
        var previous: [String: ClientAuthorization] = [:]
        for a in before.authorizations where previous[a.client] == nil { previous[a.client] = a }
        for i in clients.indices {
            if let prompt = clients[i].prompt,
                !prompt.isAnswerable(effective: effectiveStatus(i), grant: clients[i].grant, accuracy: clients[i].accuracy)
            {
                clients[i].prompt = nil
                effects.append(.event(.prompt(prompt.prompt(client: clients[i].settings.name), open: false)))
            }
            let after = authorization(of: i)
            if let old = previous[after.client] {
                if !Self.sameVisibleState(old, after) {
                    effects.append(.event(.authorization(after)))
                    if old.accuracy != after.accuracy { clients[i].anchor = nil }
                    let wasAuthorized = old.status == .always || old.status == .whileUsing
                    let nowRefused = after.status == .never || after.status == .restricted
                    if wasAuthorized, nowRefused, clients[i].updating || clients[i].locate != nil {
                        clients[i].locate = nil
                        effects.append(
                            .event(.error(client: after.client, code: .denied, message: deniedMessage(i))))
                    }
                }
            } else {
                effects.append(.event(.authorization(after)))
            }
            if !isEligible(i) { clients[i].anchor = nil }
        }
        notifyOutage(now: now, effects: &effects)
        recomputeClientDeadline()
        if persistPending || savedState != before.saved {
            persistPending = deferPersist
            if !deferPersist { effects.append(.persist) }
        }
    }

    /// The tuple events are about: (effective status, once, provisional, accuracy).
    static func sameVisibleState(_ a: ClientAuthorization, _ b: ClientAuthorization) -> Bool {
        a.status == b.status && a.once == b.once && a.provisional == b.provisional && a.accuracy == b.accuracy
    }
}
