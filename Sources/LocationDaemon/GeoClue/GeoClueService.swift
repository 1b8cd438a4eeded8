import LocationConfig
import LocationCore

/// Serves the GeoClue2-compatible face (`[geoclue]`, docs/geoclue.md): the bus
/// name is taken when the service is made, so a name another service owns stops
/// start-up before READY=1; shutdown ends every bus client's session and leaves the bus.
final class GeoClueService: Service {
    /// `geoclue`.
    let name = "geoclue"
    private let server: GeoClueServer
    private let ended: AsyncStream<Void>
    private let end: AsyncStream<Void>.Continuation

    /// Connects to `settings`' bus for `core`, whose apps of their own are `apps`, its deliveries
    /// taken from `mailbox`.
    init(settings: GeoClueSettings, core: DaemonCore, apps: GeoClueApps, mailbox: GeoClueMailbox) throws(GeoClueServer.StartError) {
        server = try GeoClueServer(settings: settings, core: core, apps: apps, mailbox: mailbox)
        (ended, end) = AsyncStream.makeStream(of: Void.self)
    }

    /// Serves on the face's thread until shutdown.
    func run() async throws {
        try server.start()
        for await _ in ended {}
    }

    /// Leaves the bus.
    func shutdown() async {
        server.stop()
        end.finish()
    }
}
