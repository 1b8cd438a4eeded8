#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationSystem

/// Serves every client's program sockets (`gpsd_socket`, `gpsd_port`,
/// `nmea_socket`) from one thread: a `ServerLoop` speaking
/// `ProgramConversation`, fed the clients' deliveries through
/// `ProgramSinks`, turning programs' comings and goings into the clients'
/// app state through the daemon's `ControlHandler` (`ProgramUse`).
///
/// Unix sockets get the client's `socket_mode` (0666 unless set, so any
/// local program can reach them, as any can reach gpsd's port) and
/// `socket_group`, as the control socket gets its mode and group
/// (`UnixListener`); `allow_users`/`allow_groups` narrow who is served, and
/// the client's authorization decides what anyone gets.
public final class ProgramServer: Sendable {
    /// Why the program sockets could not be set up.
    public struct SetupError: Error, Sendable, CustomStringConvertible {
        /// The sentence: which socket and why.
        public var description: String
    }

    /// Things said at set-up that a person should know; also logged.
    public let warnings: [String]
    /// Whether any client serves programs.
    public let isEmpty: Bool
    private let loop: ServerLoop<ProgramConversation>
    private let unixListeners: [UnixListener]
    private let tcpDescriptors: [Int32]
    private let use: ProgramUse
    private let handler: any ControlHandler
    private let sinks: ProgramSinks

    /// Opens the sockets of every client in `config` that serves programs.
    /// `audit` records refused peers; `limits` bound the connections as the
    /// control socket's do.
    public init(
        config: DaemonConfig, sinks: ProgramSinks, handler: any ControlHandler,
        audit: @escaping @Sendable (AuditRecord) -> Void, limits: ServerLimits = ServerLimits()
    ) throws(SetupError) {
        let (all, resolveWarnings, errors) = ProgramEndpoint.all(config)
        guard errors.isEmpty else { throw SetupError(description: errors.map(\.description).joined(separator: "; ")) }
        var warnings = resolveWarnings
        var endpoints: [ProgramEndpoint] = []
        var descriptors: [Int32] = []
        var unix: [UnixListener] = []
        var tcp: [Int32] = []
        func closeAll() {
            for listener in unix { listener.close() }
            for fd in tcp { Glibc.close(fd) }
        }
        for endpoint in all {
            switch endpoint.place {
            case .unix(let path):
                do {
                    let listener = try UnixListener(
                        path: path, role: "\(endpoint.key) socket", mode: endpoint.access.mode, group: endpoint.access.group,
                        directoryMode: ControlServer.directoryMode, journal: Diagnostics.programs)
                    unix.append(listener)
                    warnings += listener.warnings
                    endpoints.append(endpoint)
                    descriptors.append(listener.fd)
                } catch {
                    closeAll()
                    throw SetupError(description: "cannot serve \(endpoint.name): \(Self.sentence(error, path: path))")
                }
            case .loopback(let port):
                do {
                    let (fds, problems) = try LoopbackListener.open(port: port)
                    warnings += problems.map { "[client.\(endpoint.client)] \($0)" }
                    for fd in fds {
                        tcp.append(fd)
                        endpoints.append(endpoint)
                        descriptors.append(fd)
                    }
                } catch {
                    closeAll()
                    var text = "cannot serve \(endpoint.name): \(error)"
                    if error.errno == EADDRINUSE { text += "; another program (gpsd?) holds that port: choose another gpsd_port" }
                    throw SetupError(description: text)
                }
            }
        }
        let use = ProgramUse()
        let conversation = ProgramConversation(
            endpoints: endpoints, sinks: sinks, use: use, started: SystemClock.utc(), limits: limits)
        conversation.refused = audit
        do {
            loop = try ServerLoop(listeners: descriptors, conversation: conversation, limits: limits, executor: nil)
        } catch {
            closeAll()
            throw SetupError(description: "cannot set up the program sockets: \(error)")
        }
        self.use = use
        self.handler = handler
        self.sinks = sinks
        self.warnings = warnings
        isEmpty = endpoints.isEmpty
        unixListeners = unix
        tcpDescriptors = tcp
        for warning in warnings { Diagnostics.programs.warning(warning) }
        for endpoint in all { Diagnostics.programs.info("serving \(endpoint.name) to programs") }
    }

    deinit {
        stop()
    }

    private static func sentence(_ failure: UnixListener.Failure, path: String) -> String {
        switch failure {
        case .pathTooLong: "the path is longer than \(UnixSocketAddress.maximumPathLength) bytes, the most a Unix socket address holds"
        case .notASocket: "\(path) exists and is not a socket; locationd will not delete it"
        case .alreadyServed: "another program answers on \(path) (another locationd?)"
        case .system(let error): "\(error)"
        }
    }

    /// Serves until `stop()`: the loop on a thread of its own, the app-state
    /// changes in a task. Returns when the changes are all carried out.
    public func run() async throws(SystemError) {
        sinks.attach(loop.waker)
        try loop.startThread(name: "programs")
        await use.run(handler: handler)
    }

    /// Closes every program connection and socket (removing the socket
    /// files still ours); app-state changes already queued are carried out,
    /// the programs cut off by the stop make none.
    public func stop() {
        // First, so programs cut off by the daemon stopping change no client's app state.
        use.finish()
        sinks.attach(nil)
        if loop.stopThread() {
            for listener in unixListeners { listener.close() }
            for fd in tcpDescriptors { Glibc.close(fd) }
        }
    }

    /// What the server has done so far, and what it holds now.
    public var statistics: ServerStatistics {
        loop.published.withLock { $0 }
    }
}
