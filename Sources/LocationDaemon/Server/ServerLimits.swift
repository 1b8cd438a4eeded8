/// A socket server's bounds (docs/protocol.md, "Limits"): the control socket's and the
/// program sockets'. The defaults suit a daemon on a small board; tests shrink them.
public struct ServerLimits: Sendable, Hashable {
    /// Connections served at once; one more is accepted, told `busy`, and closed.
    public var maximumConnections: Int
    /// Seconds a connection that is not watching may go without sending a
    /// request or taking a reply before it is closed.
    public var idleTimeout: Double
    /// Bytes of event lines queued for one watcher before it is cut off (`too-slow`).
    public var watcherBacklog: Int
    /// While more than this many reply bytes wait for a peer to read them,
    /// no further request of that peer is read.
    public var replyBacklog: Int
    /// Seconds a cut-off watcher (or a `busy` peer) gets to take its last line before the close.
    public var closeGrace: Double
    /// Connections one user other than root may hold at once (watchers included).
    public var perUser: Int
    /// Of `maximumConnections`, how many only peers the conversation names may take
    /// (the control socket: root and members of `socket_group`, so an administrator is always served).
    public var reservedForPrivileged: Int
    /// Seconds a peer may take to send one request line once its first
    /// byte has arrived; then the connection is closed.
    public var lineTimeout: Double

    /// Limits from their parts; every default is the daemon's.
    public init(
        maximumConnections: Int = 128, idleTimeout: Double = 60, watcherBacklog: Int = 1 << 20,
        replyBacklog: Int = 256 << 10, closeGrace: Double = 2, perUser: Int = 16, reservedForPrivileged: Int = 16,
        lineTimeout: Double = 30
    ) {
        self.maximumConnections = maximumConnections
        self.idleTimeout = idleTimeout
        self.watcherBacklog = watcherBacklog
        self.replyBacklog = replyBacklog
        self.closeGrace = closeGrace
        self.perUser = perUser
        self.reservedForPrivileged = reservedForPrivileged
        self.lineTimeout = lineTimeout
    }

    /// Why a new connection from `uid` is refused `busy`, or `nil` to serve it:
    /// `open` connections now, `ofUser` of them the user's; `reserved`: whether the peer
    /// may take the connections kept in reserve (the conversation decides); `noun`
    /// names what the server serves ("control connections", "program connections").
    public func refusal(uid: UInt32, reserved: Bool, open: Int, ofUser: Int, serving noun: String) -> String? {
        if open >= maximumConnections {
            return "locationd already serves \(maximumConnections) \(noun), as many as it accepts; try again later"
        }
        let shared = max(0, maximumConnections - reservedForPrivileged)
        if !reserved && open >= shared {
            return "locationd already serves \(shared) \(noun), as many as it accepts from users "
                + "outside root and the socket group (the other \(maximumConnections - shared) of "
                + "\(maximumConnections) are kept for them); try again later"
        }
        if uid != 0 && ofUser >= perUser {
            return "uid \(uid) already has \(perUser) \(noun) open, as many as one user may have; "
                + "close one (an idle watch, say) and try again"
        }
        return nil
    }
}

/// What a socket server has done since it started, for diagnostics and tests.
public struct ServerStatistics: Sendable, Hashable {
    /// Connections open now (watchers included).
    public var connections = 0
    /// Connections that are watching now.
    public var watchers = 0
    /// Bytes held for all connections now: unread request bytes and unwritten output.
    public var bufferedBytes = 0
    /// Connections accepted and served since the start.
    public var accepted = 0
    /// Connections refused with `busy`.
    public var refusedBusy = 0
    /// Peers the conversation refused as soon as they connected (a program whose user is not in `allow_users`/`allow_groups`).
    public var refusedPeers = 0
    /// Request lines answered (including those refused).
    public var requests = 0
    /// Request lines refused as malformed or too long.
    public var malformed = 0
    /// Requests the conversation refused to carry out (the control socket: `not-authorized`).
    public var refusedRequests = 0
    /// Watchers cut off for falling behind.
    public var cutOff = 0
    /// Connections closed for being idle.
    public var idleClosed = 0
    /// Connections closed for taking longer than `lineTimeout` to send one request line.
    public var slowLineClosed = 0

    /// All zero.
    public init() {}
}
