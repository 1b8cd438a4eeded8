import LocationCore
import LocationProtocol
import LocationValues

/// A peer as the control plane sees it: its identity (`PeerCredentials`, from `SO_PEERCRED`),
/// and what the control plane decided of it when it connected (whether it may change state,
/// whose app it is), from which its role and what it may read follow.
public struct ControlPeer: Sendable, Hashable, CustomStringConvertible {
    /// Process ID of the peer when it connected.
    public var pid: Int32
    /// Effective user ID.
    public var uid: UInt32
    /// Effective group ID.
    public var gid: UInt32
    /// Whether the peer may change state: uid 0, or a member of `socket_group`
    /// (primary or supplementary): the operator. Decided by the server when the peer connects.
    public var mayChange: Bool
    /// The clients whose app the peer is (`app_users`, `app_groups`, `app_units`), in config order.
    public var apps: [String]
    /// The systemd unit the peer's process runs in, when a client names units and it could be told.
    public var unit: String?

    /// Credentials from their parts.
    public init(pid: Int32, uid: UInt32, gid: UInt32, mayChange: Bool, apps: [String] = [], unit: String? = nil) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.mayChange = mayChange
        self.apps = apps
        self.unit = unit
    }

    /// What the peer may read (`Disclosure` filters by it): the same people who may change state.
    public var readTier: ReadTier { ReadTier(mayChange: mayChange) }

    /// What the peer may send: the operator, the app of its clients, or anyone.
    public var role: ControlRole { ControlRole(isOperator: mayChange, apps: Set(apps)) }

    /// What the peer may see while Location Services are `services`.
    public func disclosure(services: Bool) -> Disclosure {
        Disclosure(tier: readTier, services: services, apps: Set(apps))
    }

    /// `uid 1000 pid 4242`.
    public var description: String { "uid \(uid) pid \(pid)" }
}

/// Where a watcher's event lines go. The server implements it for a
/// connection; `send` must never block: it queues the line and returns
/// `false` when the watcher has fallen too far behind, and the handler then
/// drops the watcher (the server closes the connection with a reason).
public protocol WatchSink: AnyObject, Sendable {
    /// Queues one event line (ending in `\n`); `false` when the peer is too far behind.
    func send(_ line: [UInt8]) -> Bool
}

/// A control connection's output is where its watcher's events go.
extension ConnectionOutput: WatchSink {}

/// What the control server needs from the daemon: answers to requests, and
/// event streams for watchers. The daemon core implements it; everything that
/// touches the engine happens behind it, serialised.
public protocol ControlHandler: Sendable {
    /// Answers one non-`watch` request from `peer`, refusing what `peer`'s role may not send
    /// (`ControlRole`) whatever the caller checked before.
    func handle(_ request: ControlRequest, from peer: ControlPeer) async -> ControlReply
    /// `holder` (a face's connection or object) holds `client` for its app `peer`; the first
    /// holder of any face begins the session and starts the updates (docs/authorization.md,
    /// "Who holds a client"). `id` is the reply's.
    func hold(_ client: String, by holder: ClientHolder, as peer: ControlPeer, id: JSONValue?) async -> ControlReply
    /// `holder` no longer holds `client`; the last holder of every face gone ends the session and
    /// the updates the first began, never what the configuration keeps on.
    func release(_ client: String, by holder: ClientHolder, as peer: ControlPeer, id: JSONValue?) async -> ControlReply
    /// Registers a watcher for `client` (`nil`: every client). Everything goes
    /// through `sink`, in this order, so nothing can overtake: the reply line,
    /// the initial-state event lines (source, every client's authorization,
    /// pending prompts), then every matching event as it happens. Returns `nil`
    /// when the request was refused (e.g. unknown client): the error reply was
    /// sent through `sink` and the connection stays a normal one.
    func watch(_ request: ControlRequest, client: String?, from peer: ControlPeer, sink: any WatchSink) async
        -> WatcherID?
    /// Stops sending to a watcher (its connection closed).
    func unwatch(_ watcher: WatcherID) async
}

/// Identifies one registered watcher.
public struct WatcherID: Sendable, Hashable {
    /// A number unique within the daemon's run.
    public var rawValue: UInt64
    /// An ID from its number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}
