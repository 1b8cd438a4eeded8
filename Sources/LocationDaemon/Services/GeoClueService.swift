import LocationConfig
import LocationCore

/// Serves the GeoClue2-compatible face (`[geoclue]`, docs/geoclue.md): the bus
/// name is taken when the service is made, so a name another service owns stops
/// start-up before READY=1; shutdown ends every bus client's session and leaves the bus.
final class GeoClueService: Service {
    /// `geoclue`.
    let name = "geoclue"
    private let face: GeoClueFace
    private let ended: AsyncStream<Void>
    private let end: AsyncStream<Void>.Continuation

    /// Connects to `settings`' bus for `core`, whose apps of their own are `apps`.
    init(settings: GeoClueSettings, core: DaemonCore, apps: GeoClueApps) throws(GeoClueFace.StartError) {
        face = try GeoClueFace(settings: settings, core: core, apps: apps, mailbox: core.geoclueMailbox)
        (ended, end) = AsyncStream.makeStream(of: Void.self)
    }

    /// Serves on the face's thread until shutdown.
    func run() async throws {
        try face.start()
        for await _ in ended {}
    }

    /// Leaves the bus.
    func shutdown() async {
        face.stop()
        end.finish()
    }
}
