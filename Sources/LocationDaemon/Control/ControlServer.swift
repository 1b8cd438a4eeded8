#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationProtocol
import LocationSystem
import Synchronization

/// The control socket (docs/protocol.md): a Unix stream socket carrying one JSON
/// object per line each way, served by one thread that multiplexes every
/// connection with `poll(2)` and hands requests to a `ControlHandler`.
///
/// * `init` sets the socket up: creates its directory, replaces a socket
///   left by a daemon that is gone (refuses if one answers, and never
///   deletes anything that is not a socket), binds, gives the file its mode
///   (`[daemon] socket_mode`, 0666 by default: the role decides) and group
///   `socket_group`, and listens. Connections wait in the backlog
///   until `start()`. Or, under socket activation, it serves the listening
///   socket systemd passed (`PassedSocket`) as it is: systemd made the file,
///   its mode and group.
/// * Peers: `SO_PEERCRED`, `SO_PEERGROUPS` and the peer's unit decide its
///   role (`ControlRole`): the operator (uid 0, or a member of
///   `socket_group`), the app of a client (`app_users`, `app_groups`,
///   `app_units`), or anyone; requests a role may not send get
///   `not-authorized` and the handler never sees them.
/// * Bounds (`Limits`): request lines of at most 64 KiB, a bounded number of
///   connections, idle connections closed, one request in flight per
///   connection, replies and watcher backlogs capped. A slow or silent peer
///   never blocks the others or the handler.
/// * `stop()` closes every connection and removes the socket file if it is
///   still the one this server made (never systemd's).
public final class ControlServer: Sendable {
    /// The error code of the last line a watcher gets when it fell too far behind.
    public static let tooSlowCode = "too-slow"
    /// The error code of the last line a watcher gets when the daemon stops.
    public static let shuttingDownCode = ProtocolError.Code.shuttingDown.rawValue
    /// The socket file's mode unless `[daemon] socket_mode` says otherwise.
    public static let socketMode = mode_t(DaemonConfig.defaultSocketMode)
    /// The mode of a socket directory the server creates (less the umask).
    public static let directoryMode: mode_t = 0o755

    /// The socket's path.
    public let path: String
    /// The group whose members may change state, if `socket_group` named one that exists.
    public let group: SocketGroup?
    /// The bounds the server keeps.
    public let limits: Limits
    /// Things said at set-up that a person should know (e.g. the group does
    /// not exist, so only root may change state); also logged.
    public let warnings: [String]

    private let listener: UnixListener
    private let loop: ServerLoop<ControlConversation>

    /// Sets the socket up at `path` (see the type's documentation) and
    /// listens; requests are served once `start()` is called.
    public convenience init(
        path: String, socketGroup: String?, handler: any ControlHandler, limits: Limits = Limits(),
        socketMode: mode_t = ControlServer.socketMode
    ) throws(ControlServerError) {
        try self.init(
            path: path, socketGroup: socketGroup, handler: handler, limits: limits, adjustPeer: nil, executor: nil,
            socketMode: socketMode)
    }

    /// Serves `passed`, the listening socket systemd handed over, as it is.
    /// `socketGroup` still decides who may change state.
    public convenience init(
        passed: PassedSocket, socketGroup: String?, handler: any ControlHandler, limits: Limits = Limits()
    ) throws(ControlServerError) {
        try self.init(
            path: passed.path, socketGroup: socketGroup, handler: handler, limits: limits, adjustPeer: nil, executor: nil,
            passed: passed)
    }

    /// The same, with `adjustPeer` applied to every peer's credentials (tests
    /// use it to play a peer that may not change state), and handler calls
    /// started on `executor` (tests give one of their own, so a handler that
    /// needs no actor answers even while other tests hold the shared pool).
    init(
        path: String, socketGroup: String?, handler: any ControlHandler, limits: Limits,
        adjustPeer: (@Sendable (ControlPeer) -> ControlPeer)?, executor: (any TaskExecutor)?,
        passed: PassedSocket? = nil, socketMode: mode_t = ControlServer.socketMode, apps: AppDirectory = AppDirectory()
    ) throws(ControlServerError) {
        self.path = path
        self.limits = limits
        var warnings: [String] = []
        var group: SocketGroup?
        if let name = socketGroup {
            switch SocketGroup.lookup(name) {
            case .success(let found): group = found
            case .failure(let error):
                warnings.append(
                    "\(error): only root may change state through \(path); create the group "
                        + "(systemd-sysusers does it for the packaged unit) or set socket_group in [daemon] of locationd.conf")
            }
        }

        let listener: UnixListener
        if let passed {
            listener = UnixListener(passed: passed)
        } else {
            do {
                listener = try UnixListener(
                    path: path, role: "control socket", mode: socketMode, group: group,
                    directoryMode: Self.directoryMode, journal: Diagnostics.control)
            } catch {
                throw ControlServerError(error, path: path)
            }
        }
        warnings += listener.warnings
        do {
            let conversation = ControlConversation(
                path: path, handler: handler, group: group, limits: limits, adjustPeer: adjustPeer, apps: apps)
            loop = try ServerLoop(
                listeners: [listener.fd], conversation: conversation, limits: limits, executor: executor)
        } catch {
            listener.close()
            throw .system(path: path, error)
        }
        self.listener = listener
        self.group = group
        self.warnings = warnings
        for warning in warnings { Diagnostics.control.warning(warning) }
        if socketGroup == nil {
            Diagnostics.control.info("control socket \(path): no socket_group is set, so only root may change state")
        }
    }

    deinit {
        stop()
    }

    /// Starts serving on a thread of its own. Calling it again does nothing.
    public func start() throws(ControlServerError) {
        do {
            try loop.startThread(name: "control")
        } catch {
            throw .system(path: path, error)
        }
    }

    /// Stops serving: watchers get a last `shutting-down` line, every
    /// connection is closed, and the socket file is removed if it is still
    /// the one this server made. Waits for the server's thread to end.
    /// Calling it again does nothing.
    public func stop() {
        if loop.stopThread() { listener.close() }
    }

    /// What the server has done so far, and what it holds now.
    public var statistics: Statistics {
        loop.published.withLock { $0 }
    }
}

extension ControlServer {
    /// The control socket's bounds: the socket servers' (`ServerLimits`).
    public typealias Limits = ServerLimits
    /// What the control socket has done: the socket servers' counts (`ServerStatistics`).
    public typealias Statistics = ServerStatistics
}
