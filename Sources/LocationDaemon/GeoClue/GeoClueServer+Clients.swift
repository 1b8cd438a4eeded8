#if canImport(Glibc)
import Glibc
#endif
import CBus
import LocationCore
import LocationSystem
import LocationConfig
import LocationProtocol
import LocationValues

/// Which engine client an app is, and what the engine says of it.
extension GeoClueServer {

    /// The engine client of `desktopId` run by `peer`: a configured `geoclue_id` whose app keys take
    /// the peer (or that has none), else the app's own client (made on its first `Start`).
    func engineClient(desktopId: String, peer: GeoCluePeer) -> Result<String, GeoClueDecision.Refusal> {
        let config = core.config
        if let configured = GeoClueDecision.configuredClient(
            desktopId: desktopId, principal: peer.principal, clients: config.clients, own: Set(apps.apps.map(\.name)))
        {
            return .success(configured)
        }
        switch apps.client(desktopId: desktopId, uid: peer.uid, configured: Set(config.clients.map(\.name)), undecided: undecided) {
        case .success(let (app, new)):
            if new {
                core.reapplyFaces()
                Diagnostics.geoclue.notice("the GeoClue app \(desktopId) of uid \(peer.uid) is the client \(app.name) from now on")
            }
            return .success(app.name)
        case .failure(let refusal):
            return .failure(GeoClueDecision.refusal(refusal, desktopId: desktopId, uid: peer.uid))
        }
    }

    /// Whether the app of its own `app` never got a decision and may be forgotten to make room
    /// (`GeoClueApps.client`): still `ask`, no prompt pending, no holder of any face.
    func undecided(_ app: GeoClueApps.App) -> Bool {
        guard core.holderCount(of: app.name) == 0 else { return false }
        guard let client = core.statusReport().status.clients.first(where: { $0.authorization.client == app.name }) else { return true }
        return client.authorization.stored == .ask && client.prompt == nil
    }

    /// `command` from the bus peer as the app of its client (`AppSide`), never as the operator.
    @discardableResult
    func command(_ command: Command, as peer: GeoCluePeer, client name: String) -> ControlReply {
        app(of: name, peer).send(command, synchronouslyTo: core)
    }

    /// The bus peer as the app of its client (`AppSide`).
    func app(of name: String, _ peer: GeoCluePeer) -> AppSide {
        AppSide(of: name, for: peer.credentials, journal: Diagnostics.geoclue)
    }

    /// The client's effective status, whether Location Services are on and whether the client's
    /// accuracy is reduced.
    func authorization(of name: String) -> (AuthorizationStatus, Bool, Bool)? {
        let status = core.statusReport().status
        guard let client = status.clients.first(where: { $0.authorization.client == name }) else { return nil }
        return (client.authorization.status, status.services, !client.authorization.accuracy.isFull)
    }
}
