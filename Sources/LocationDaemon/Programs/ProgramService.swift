import LocationConfig
import LocationCore

/// Serves the clients' program sockets (gpsd protocol, NMEA): the
/// `ProgramServer` is set up when the service is made, so a socket that
/// cannot be had stops start-up before READY=1; shutdown closes every
/// program connection and removes the socket files.
public final class ProgramService: Service {
    /// `programs`.
    public let name = "programs"
    /// The server.
    public let server: ProgramServer

    /// Opens the program sockets of `config`'s clients for `core`, their deliveries taken from `sinks`.
    init(config: DaemonConfig, core: DaemonCore, sinks: ProgramSinks) throws(ProgramServer.SetupError) {
        server = try ProgramServer(
            config: config, sinks: sinks, handler: core,
            audit: { record in core.audit(record) })
    }

    /// Serves until shutdown.
    public func run() async throws {
        try await server.run()
    }

    /// Closes the sockets and every program connection.
    public func shutdown() async {
        server.stop()
    }
}
