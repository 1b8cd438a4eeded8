#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem
import Synchronization

/// The control socket (SPEC §5.4): a Unix stream socket carrying one JSON
/// object per line each way, served by one thread that multiplexes every
/// connection with `poll(2)` and hands requests to a `ControlHandler`.
///
/// * `init` sets the socket up: creates its directory, replaces a socket
///   left by a daemon that is gone (refuses if one answers, and never
///   deletes anything that is not a socket), binds, gives the file mode 0660
///   and group `socket_group`, and listens. Connections wait in the backlog
///   until `start()`. Or, under socket activation, it serves the listening
///   socket systemd passed (`PassedSocket`) as it is: systemd made the file,
///   its mode and group.
/// * Peers: `SO_PEERCRED` decides who may change state (uid 0, or a member
///   of `socket_group`); other peers get `not-authorized` for change
///   requests and the handler never sees them.
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
    /// The socket file's mode.
    public static let socketMode: mode_t = 0o660
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

    private enum ThreadState {
        case idle
        case running(DaemonThread.Handle)
        case stopped
    }

    private let listenFD: Int32
    /// The socket file this server made; `nil` for a socket systemd passed.
    private let identity: (device: UInt64, inode: UInt64)?
    private let loop: ServerLoop
    private let thread = Mutex(ThreadState.idle)

    /// Sets the socket up at `path` (see the type's documentation) and
    /// listens; requests are served once `start()` is called.
    public convenience init(
        path: String, socketGroup: String?, handler: any ControlHandler, limits: Limits = Limits()
    ) throws(ControlServerError) {
        try self.init(
            path: path, socketGroup: socketGroup, handler: handler, limits: limits, adjustPeer: nil, executor: nil)
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
        adjustPeer: (@Sendable (PeerCredentials) -> PeerCredentials)?, executor: (any TaskExecutor)?,
        passed: PassedSocket? = nil
    ) throws(ControlServerError) {
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
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

        let fd: Int32
        if let passed {
            fd = passed.descriptor
            identity = nil
        } else {
            let made = try Self.bindListening(address, group: group, warnings: &warnings)
            fd = made.descriptor
            identity = made.identity
        }
        do {
            loop = try ServerLoop(listenFD: fd, path: path, handler: handler, group: group, limits: limits, adjustPeer: adjustPeer,
                executor: executor)
        } catch {
            Glibc.close(fd)
            if identity != nil { unlink(path) }
            throw .system(path: path, error)
        }
        listenFD = fd
        self.group = group
        self.warnings = warnings
        for warning in warnings { Diagnostics.warning(warning) }
        if socketGroup == nil {
            Diagnostics.info("control socket \(path): no socket_group is set, so only root may change state")
        }
    }

    /// Makes the socket at `address` (its directory, a stale socket removed),
    /// binds, sets mode and group, and listens.
    private static func bindListening(
        _ address: UnixSocketAddress, group: SocketGroup?, warnings: inout [String]
    ) throws(ControlServerError) -> (descriptor: Int32, identity: (device: UInt64, inode: UInt64)) {
        let path = address.path
        do {
            try FileSystem.makeDirectories(FileSystem.parent(of: path), mode: Self.directoryMode)
        } catch {
            throw .system(path: path, error)
        }
        try Self.clearStaleSocket(address)

        let fd: Int32
        do {
            fd = try UnixSocketAddress.makeSocket(nonBlocking: true)
        } catch {
            throw .system(path: path, error)
        }
        var info = stat()
        do {
            try retryingEINTR("bind \(path)") { address.withSockaddr { bind(fd, $0, $1) } }
            try retryingEINTR("stat \(path)") { lstat(path, &info) }
            if let group, chown(path, uid_t.max, group.gid) != 0 {
                let code = errno
                warnings.append(
                    "cannot give \(path) to group \(group.name) (\(String(cString: strerror(code)))): its members cannot "
                        + "connect; run locationd as root or as a member of \(group.name)")
            }
            try retryingEINTR("chmod \(path)") { chmod(path, Self.socketMode) }
            try retryingEINTR("listen \(path)") { listen(fd, 128) }
        } catch {
            Glibc.close(fd)
            if error.operation.hasPrefix("bind") == false { unlink(path) }
            throw .system(path: path, error)
        }
        return (fd, (UInt64(info.st_dev), UInt64(info.st_ino)))
    }

    deinit {
        stop()
    }

    /// Starts serving on a thread of its own. Calling it again does nothing.
    public func start() throws(ControlServerError) {
        let loop = self.loop
        let path = self.path
        try thread.withLock { state throws(ControlServerError) in
            guard case .idle = state else { return }
            do throws(SystemError) {
                state = .running(try DaemonThread.start(name: "control", detached: false) { loop.run() })
            } catch {
                throw .system(path: path, SystemError("start the control server thread", errno: error.errno))
            }
        }
    }

    /// Stops serving: watchers get a last `shutting-down` line, every
    /// connection is closed, and the socket file is removed if it is still
    /// the one this server made. Waits for the server's thread to end.
    /// Calling it again does nothing.
    public func stop() {
        let previous = thread.withLock { state in
            defer { state = .stopped }
            return state
        }
        switch previous {
        case .stopped:
            return
        case .idle:
            break
        case .running(let handle):
            loop.inbox.requestStop()
            loop.waker.signal()
            if !handle.isCurrent { handle.join() }
        }
        Glibc.close(listenFD)
        var info = stat()
        if let identity, lstat(path, &info) == 0, UInt64(info.st_dev) == identity.device,
            UInt64(info.st_ino) == identity.inode
        {
            unlink(path)
        }
    }

    /// What the server has done so far, and what it holds now.
    public var statistics: Statistics {
        loop.published.withLock { $0 }
    }

    /// Removes a socket left at `address` by a daemon that is gone.
    private static func clearStaleSocket(_ address: UnixSocketAddress) throws(ControlServerError) {
        let path = address.path
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw .system(path: path, SystemError("stat \(path)", errno: code))
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
        let occupant: UnixSocketAddress.Occupant
        do {
            occupant = try address.probe()
        } catch {
            throw .system(path: path, error)
        }
        switch occupant {
        case .server:
            throw .alreadyRunning(path)
        case .nobody:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .system(path: path, SystemError("remove the stale socket \(path)", errno: errno))
            }
            Diagnostics.notice("removed \(path), a control socket left by a locationd that is no longer running")
        case .unknown(let code):
            throw .system(path: path, SystemError("connect to the existing \(path)", errno: code))
        }
    }
}
