import LocationValues

/// The engine's state at one moment, for `status` (docs/protocol.md). Nothing here is
/// cached outside the engine: it is computed on request.
public struct EngineStatus: Sendable, Hashable {
    /// The Location Services switch.
    public var services: Bool
    /// The source's link and receiver state.
    public var source: SourceState
    /// The last fix the source reported with a position (usable or not), if any.
    public var lastFix: Fix?
    /// Seconds since that fix arrived (engine `now` minus arrival), if any.
    public var lastFixAge: Double?
    /// Per client, in config order.
    public var clients: [ClientStatus]
    /// Times the receiver's time went back (each started a new time base) since the daemon started.
    public var timeJumps = 0
    /// The latest of them, if any.
    public var lastTimeJump: TimeJump?
    /// Seconds since it was seen.
    public var lastTimeJumpAge: Double?
    /// Every receiver seen since the daemon started, by name (docs/sources.md, "Several receivers").
    public var receivers: [ReceiverStatus] = []

    /// A status from its parts.
    public init(services: Bool, source: SourceState, lastFix: Fix?, lastFixAge: Double?, clients: [ClientStatus]) {
        self.services = services
        self.source = source
        self.lastFix = lastFix
        self.lastFixAge = lastFixAge
        self.clients = clients
    }
}

/// One client's state, why it is or is not delivering, and what would change that.
public struct ClientStatus: Sendable, Hashable {
    /// Effective status, flags and accuracy.
    public var authorization: ClientAuthorization
    /// In use (foreground).
    public var inUse: Bool
    /// Updating (started).
    public var updating: Bool
    /// A `locate` is pending.
    public var locatePending: Bool
    /// While a `locate` is pending: seconds until it gives up (the daemon's monotonic clock).
    public var locateLeft: Double?
    /// The client's pending prompt, if any.
    public var prompt: Prompt?
    /// Whether the client was delivered a fix within the last `Engine.deliveringWindow` seconds
    /// (and steps 1–3 still let it have the next one).
    public var delivering: Bool
    /// Whether delivery steps 1–3 (docs/authorization.md §4) let it have the next usable fix (it may still be waiting for one).
    public var eligible: Bool
    /// Why it is or is not delivering, as one sentence.
    public var reason: String
    /// What a pending locate's `reason` starts with while the client is not
    /// updating (what a locate command waits on).
    public static let locatingPrefix = "locating (one fix): "
    /// The next step: the one command that would change that, e.g. `authorize logger
    /// while-using` (whose it is to send is its `word.side`; `locationctl` renders it for its
    /// reader); `nil` when delivering or nothing can.
    public var suggestion: Command?
    /// Time (UTC seconds) of the last fix delivered to this client, if any.
    public var lastDelivered: Double?
    /// Fixes delivered since the daemon started.
    public var deliveredCount: Int
    /// Fixes not delivered since the daemon started, by reason.
    public var drops: DropCounters
    /// Seconds since the last delivery (the daemon's monotonic clock), if any.
    public var lastDeliveredAge: Double?
    /// How the client's log is being written (the daemon fills it in; `nil`: no log, or not known).
    public var logWrite: LogWriteStatus?
    /// The raw capture files (`raw_log`) written now, one per receiver (the daemon fills it in).
    public var rawLogs: [String] = []

    /// A status from its parts.
    public init(
        authorization: ClientAuthorization, inUse: Bool, updating: Bool, locatePending: Bool, prompt: Prompt?,
        delivering: Bool, reason: String, suggestion: Command?, lastDelivered: Double?, deliveredCount: Int,
        drops: DropCounters = DropCounters(), lastDeliveredAge: Double? = nil, eligible: Bool? = nil, locateLeft: Double? = nil
    ) {
        self.locateLeft = locateLeft
        self.eligible = eligible ?? delivering
        self.drops = drops
        self.lastDeliveredAge = lastDeliveredAge
        self.authorization = authorization
        self.inUse = inUse
        self.updating = updating
        self.locatePending = locatePending
        self.prompt = prompt
        self.delivering = delivering
        self.reason = reason
        self.suggestion = suggestion
        self.lastDelivered = lastDelivered
        self.deliveredCount = deliveredCount
    }
}
