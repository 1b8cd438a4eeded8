import LocationConfig
import LocationCore

/// The GeoClue face's apps and requests over the configuration file's: the
/// file as last read, and what to lay over it (issue #38).
struct GeoClueOverlay: Sendable {
    /// The configuration as the file says (start, the last SIGHUP).
    var file: DaemonConfig
    /// The apps of their own and the requests.
    let apps: GeoClueApps
}

extension DaemonCore {
    /// From now on, every configuration the core takes has `apps` laid over it (the core was made
    /// with `apps.overlay(file)`).
    func attachGeoClue(_ apps: GeoClueApps, file: DaemonConfig) {
        geoclueOverlay.withLock { $0 = GeoClueOverlay(file: file, apps: apps) }
    }

    /// `client`'s pending prompt is withdrawn, unanswered: the GeoClue app that asked went away
    /// and no other holds the client (docs/geoclue.md, "Prompts of apps that left").
    func withdrawPrompt(of client: String, reason: String) {
        owner.withLock { $0.withdrawPrompt(of: client, reason: reason) }
    }

    /// The apps or requests changed: the engine takes the file's configuration with them laid over,
    /// as a reload does (every client keeps its state; a new app's client starts as `ask`).
    func reapplyOverlay() {
        geoclueOverlay.withLock { overlay in
            guard let overlay else { return }
            let effective = overlay.apps.overlay(overlay.file)
            _ = owner.withLock { $0.reload(effective) }
        }
    }
}
