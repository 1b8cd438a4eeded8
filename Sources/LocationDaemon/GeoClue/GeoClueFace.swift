import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues

/// The GeoClue2-compatible face as a face of the daemon (`Face`, docs/geoclue.md): the apps that
/// became clients of their own (`GeoClueApps`) are laid over every configuration the core takes,
/// its deliveries go through the `GeoClueMailbox`, and `GeoClueService` serves the bus
/// (`GeoClueServer`) while `[geoclue]` is set. The bus and its defaults wait for a restart; the
/// apps do not.
final class GeoClueFace: Face {
    /// `geoclue`.
    let name = "geoclue"
    /// Where deliveries meet the bus thread.
    let mailbox = GeoClueMailbox()
    /// `[geoclue]` as it was at start (the bus and the defaults wait for a restart).
    let settings: GeoClueSettings
    /// The apps of their own.
    let apps: GeoClueApps

    private init(settings: GeoClueSettings, apps: GeoClueApps) {
        self.settings = settings
        self.apps = apps
    }

    /// The face while `[geoclue]` is set. The apps of their own are read before the core is
    /// made, so their saved state applies (issue #38).
    static func make(config: DaemonConfig) -> GeoClueFace? {
        guard let settings = config.geoclue else { return nil }
        return GeoClueFace(settings: settings, apps: GeoClueApps(directory: config.stateDirectory, settings: settings))
    }

    /// The face is set up at start: its bus and defaults wait for a restart (its apps do not).
    static func reloadNeedsRestart(_ reload: inout ConfigReload, running: DaemonConfig) {
        reload.keepRunning(\.geoclue, "[geoclue]", running: running)
    }

    var output: (any OutputFace)? { mailbox }

    /// `config` with the apps of their own added.
    func overlay(_ config: DaemonConfig) -> DaemonConfig {
        apps.overlay(config)
    }

    /// The bus server.
    func service(config: DaemonConfig, core: DaemonCore) throws -> (any Service)? {
        try GeoClueService(settings: settings, core: core, apps: apps, mailbox: mailbox)
    }
}

extension ClientHolder.Face {
    /// The GeoClue face: a started client object.
    public static let geoclue = ClientHolder.Face("geoclue", holders: "GeoClue clients")
}
