#if canImport(Glibc)
import Glibc
#endif
import CBus
import LocationCore
import LocationSystem
import LocationConfig
import LocationProtocol
import LocationValues

/// `Start` and `Stop`: a started client object is a holder of its engine client (`ClientHolder`,
/// face `geoclue`), and the app side's commands go as the app's (`AppSide`).
extension GeoClueServer {
    /// `Start`: who the peer is, which engine client it is, then the app side's commands.
    func start(_ client: GeoClueClient, call: OpaquePointer?, error: OpaquePointer?) -> Int32 {
        if client.started {
            if client.isPortal { startAnotherPortalSession(client) }
            return cbus_reply_empty(call)
        }
        guard let bus else { return -ENOTCONN }
        // Who the peer is (what the bus vouches for, its process pinned), then which app: its Flatpak id, else its DesktopId.
        let resolved = GeoCluePeer.resolve(busName: client.owner, on: bus).flatMap { found in
            found.desktopId(claimed: client.desktopId).map { (found, $0) }
        }
        let (peer, desktopId): (GeoCluePeer, String)
        switch resolved {
        case .success(let found): (peer, desktopId) = found
        case .failure(let why):
            Diagnostics.geoclue.notice("refused Start of \(client.path): locationd cannot vouch for who \(client.owner) is: \(why)")
            return cbus_error_set(error, Self.accessDenied, "locationd cannot vouch for who this connection is: \(why)")
        }
        if case .failure(let refusal) = GeoClueDecision.desktopId(desktopId) { return Self.refuse(refusal, error) }
        let name: String
        switch engineClient(desktopId: desktopId, peer: peer) {
        case .success(let found): name = found
        case .failure(let refusal): return Self.refuse(refusal, error)
        }
        client.filter = GeoClueFilter(
            level: client.props.pointee.requested_accuracy_level, distanceThreshold: client.props.pointee.distance_threshold)
        client.peer = peer
        client.engineClient = name
        client.started = true
        client.starts = 1
        // Status names the app and its peer before the engine hears of it, so whoever sees the
        // prompt (or the start) it opens finds the app in `status` too.
        publishStatus()
        app(of: name, peer).hold(by: holder(client), synchronouslyTo: core)
        mailbox.setWatched(name, true)
        guard let (status, services, reducedClient) = authorization(of: name) else {
            stop(client)
            return cbus_error_set(error, Self.accessDenied, "\(name) is not a client of locationd any more")
        }
        switch GeoClueDecision.start(name, status: status, services: services) {
        case .ask:
            // The prompt opens; the person answers with locationctl, positions come with the grant.
            let asked = command(.request(client: name, kind: .whileUsing), as: peer, client: name)
            if let (_, message) = asked.error {
                // No prompt can open (a configured client without `usage`): the app is told, not left waiting.
                stop(client)
                return cbus_error_set(error, Self.accessDenied, "\(name) cannot ask for location: \(message)")
            }
            Diagnostics.geoclue.notice(
                "\(desktopId) (\(peer.credentials), \(peer.busName)) asks for location as \(name); answer with: \(CommandWord.answer.commandLine(name, "…"))")
        case .serve:
            Diagnostics.geoclue.info("\(desktopId) (\(peer.credentials), \(peer.busName)) started \(name)")
        case .refuse(let refusal):
            stop(client)
            return Self.refuse(refusal, error)
        }
        setActive(client, true)
        updateInUse()
        // Reduced, the interval's position is given again at once, rather than nothing until
        // the next interval: nothing new is disclosed, and the app does not wait (docs/geoclue.md).
        if GeoClueDecision.givesAtOnce(objectReduced: client.filter.reduced, clientReduced: reducedClient),
            let again = core.reducedPosition(of: name, for: nil)
        {
            atOnce.append((client, Delivery(client: name, fix: again, accuracy: .reduced)))
        }
        return cbus_reply_empty(call)
    }

    /// A further `Start` on the portal's started object: one more session of a sandboxed app. The
    /// object is the coarsest level any of its open sessions asked (no app rides on another's finer
    /// level), and the new session gets its first position as a first `Start` does.
    func startAnotherPortalSession(_ client: GeoClueClient) {
        client.starts += 1
        client.filter.anotherSession(level: client.props.pointee.requested_accuracy_level)
        if client.filter.reduced, let name = client.engineClient, let again = core.reducedPosition(of: name, for: nil) {
            atOnce.append((client, Delivery(client: name, fix: again, accuracy: .reduced)))
        }
    }

    /// Signals the positions `start` found for client objects just started, after their replies.
    func answerAtOnce() {
        let due = atOnce
        atOnce.removeAll()
        for (client, delivery) in due where client.started && client.engineClient == delivery.client && client.filter.isFresh {
            signal(delivery, to: client)
        }
    }

    /// `Stop`, `DeleteClient`, the connection gone, a grant taken away: the client object lets go
    /// of its engine client; the session ends when no holder of any face holds it (`ClientHolders`).
    func stop(_ client: GeoClueClient) {
        guard client.started, let name = client.engineClient, let peer = client.peer else { return }
        client.started = false
        client.starts = 0
        if !clients.values.contains(where: { $0.started && $0.engineClient == name }) { mailbox.setWatched(name, false) }
        app(of: name, peer).release(by: holder(client), synchronouslyTo: core)
        setActive(client, false)
        updateInUse()
    }

    /// A client object as a holder of its engine client.
    func holder(_ client: GeoClueClient) -> ClientHolder {
        ClientHolder(.geoclue, client.path, updates: true)
    }

    /// `DeleteClient` or the connection gone (`why`, for a prompt it withdraws).
    func remove(_ client: GeoClueClient, _ why: String) {
        stop(client)
        withdrawPrompt(of: client, why)
        clients[client.path] = nil
        if given[client.owner] == client.path { given[client.owner] = nil }
        let prefix = client.path + "/"
        locations = locations.filter { !$0.key.hasPrefix(prefix) }
    }

    /// A connection left the bus: its clients' sessions end at once, and a prompt it left with no
    /// other holder is withdrawn.
    func gone(_ name: String) {
        for client in clients.values where client.owner == name { remove(client, "its app left the bus") }
        given[name] = nil
    }

    /// After `client` stopped: when no holder of any face holds its engine client (`ClientHolders`),
    /// a prompt pending for it has nobody to tell the answer to and is withdrawn (the client stays `ask`).
    func withdrawPrompt(of client: GeoClueClient, _ why: String) {
        guard let name = client.engineClient, core.holderCount(of: name) == 0 else { return }
        core.withdrawPrompt(of: name, reason: why)
    }

    /// Answers a call with `refusal`'s D-Bus error.
    static func refuse(_ refusal: GeoClueDecision.Refusal, _ error: OpaquePointer?) -> Int32 {
        cbus_error_set(error, refusal.name, refusal.description)
    }
}
