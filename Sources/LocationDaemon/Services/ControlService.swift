#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore

/// Serves the control socket (docs/protocol.md): the `ControlServer` runs on a
/// thread of its own and hands every request to the daemon core (its
/// `ControlHandler`) as a task on the core thread (`CoreExecutor`), never
/// on the cooperative pool. The socket is bound when the service is made, so a
/// socket that cannot be set up (another daemon running, a bad path) stops
/// start-up before READY=1; shutdown tells watchers, closes every
/// connection and removes the socket file.
public final class ControlService: Service {
    /// `control`.
    public let name = "control"
    /// The server.
    public let server: ControlServer
    private let stopped: AsyncStream<Void>
    private let stop: AsyncStream<Void>.Continuation

    /// Binds `config.socket` (group `config.socketGroup`) for `core`, or
    /// serves `passed`, the socket systemd handed over (locationd.socket).
    public init(config: DaemonConfig, core: DaemonCore, passed: PassedSocket? = nil) throws(ControlServerError) {
        server = try ControlServer(
            path: passed?.path ?? config.socket, socketGroup: config.socketGroup, handler: core,
            limits: ControlServer.Limits(), adjustPeer: nil, executor: CoreExecutor.shared, passed: passed,
            socketMode: mode_t(config.socketMode), apps: AppDirectory(config))
        if let passed {
            Diagnostics.control.info("control socket \(passed.path): passed by systemd (locationd.socket)")
            if passed.path != config.socket {
                Diagnostics.control.warning(
                    "systemd passed the control socket \(passed.path), but [daemon] socket is \(config.socket): serving "
                        + "\(passed.path); make locationd.socket's ListenStream= and the configuration name the same path")
            }
        }
        (stopped, stop) = AsyncStream.makeStream(of: Void.self)
    }

    /// Serves until shutdown.
    public func run() async throws {
        try server.start()
        for await _ in stopped {}
    }

    /// Closes the socket and every connection.
    public func shutdown() async {
        server.stop()
        stop.finish()
    }
}
