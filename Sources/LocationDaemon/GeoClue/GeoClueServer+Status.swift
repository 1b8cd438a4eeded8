#if canImport(Glibc)
import Glibc
#endif
import CBus
import LocationCore
import LocationSystem
import LocationConfig
import LocationProtocol
import LocationValues

/// What `status` shows of the face.
extension GeoClueServer {
    /// What `status` shows: the bus, and every client GeoClue apps use with the peers holding it.
    func publishStatus() {
        var section = GeoClueSection(bus: settings.bus.description, connected: bus != nil)
        let own = Dictionary(apps.apps.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for client in core.config.clients {
            guard let desktopId = client.geoclueId else { continue }
            let peers = clients.values.filter { $0.started && $0.engineClient == client.name }.compactMap(\.peer).map {
                GeoClueSection.Peer(busName: $0.busName, pid: $0.pid, uid: $0.uid, unit: $0.unit)
            }
            section.clients[client.name] = GeoClueSection.Client(desktopId: desktopId, uid: own[client.name]?.uid, peers: peers)
        }
        mailbox.publish(section)
    }
}
