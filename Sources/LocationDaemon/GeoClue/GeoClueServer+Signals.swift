#if canImport(Glibc)
import Glibc
#endif
import CBus
import LocationCore
import LocationSystem
import LocationConfig
import LocationProtocol
import LocationValues

/// Deliveries, grant changes and the source's state, carried out on the bus: each object's
/// `GeoClueFilter` decides what reaches it.
extension GeoClueServer {

    func carry(_ taken: GeoClueMailbox.Taken) {
        if let source = taken.source { setAvailable(source) }
        for delivery in taken.deliveries {
            for client in clients.values where client.started && client.engineClient == delivery.client {
                signal(delivery, to: client)
            }
        }
        for name in taken.regranted { regranted(name) }
    }

    /// A new Location object and `LocationUpdated`, to the client's connection only. What the
    /// client object asked narrows its own signals here, never the engine client's deliveries: a
    /// level up to NEIGHBORHOOD gets the engine client's own reduced position (`reducedPosition`:
    /// one secret per client, the same position within its interval, given once), and
    /// `DistanceThreshold` and `TimeThreshold` hold back what is too near or too soon after the
    /// last signal — never the first position after `Start`.
    func signal(_ delivery: Delivery, to client: GeoClueClient) {
        guard let bus else { return }
        let now = SystemClock.monotonic()
        guard client.filter.isDue(now: now, timeThreshold: client.props.pointee.time_threshold) else { return }
        var delivery = delivery
        if client.filter.narrows(delivery.accuracy) {
            guard let reduced = core.reducedPosition(of: delivery.client, for: delivery.fix) else { return }
            delivery = Delivery(client: delivery.client, fix: reduced, accuracy: .reduced)
        }
        let point = EarthPoint(latitude: delivery.fix.latitude, longitude: delivery.fix.longitude)
        guard client.filter.admits(point, accuracy: delivery.accuracy) else { return }
        // The grid only names a reduced position's cell (Description).
        let grid = delivery.accuracy == .reduced ? core.config.clients.first { $0.name == delivery.client }?.reducedGrid : nil
        let location = GeoClueLocation(
            path: client.nextLocationPath(), owner: client.owner, delivery: delivery, grid: grid, now: SystemClock.utc())
        locations[location.path] = location
        let old = client.current ?? "/"
        if let current = client.current { locations[current]?.replacedAt = now }
        client.current = location.path
        _ = cbus_set_string(&client.props.pointee.location, location.path)
        _ = cbus_client_changed(bus, client.owner, client.path, client.props, CBUS_PROP_LOCATION.rawValue)
        let r = cbus_location_updated(bus, client.owner, client.path, old, location.path)
        client.filter.signalled(point, at: now)
        guard r >= 0 else {
            Diagnostics.geoclue.warning("\(client.path): LocationUpdated not sent (\(SystemError("sd-bus", errno: -r)))")
            return
        }
        mailbox.count(delivery, peer: client.peer?.accessPeer, time: SystemClock.utc())
    }

    /// `name`'s grant changed: if it no longer lets positions through, its bus clients stop and say
    /// so (`Active` false); a grant given back lets a new `Start` succeed.
    func regranted(_ name: String) {
        guard let (status, services, _) = authorization(of: name) else { return }
        guard GeoClueDecision.stopsOnRegrant(status: status, services: services) else { return }
        for client in clients.values where client.started && client.engineClient == name {
            Diagnostics.geoclue.notice("\(client.path) (\(name)) is no longer allowed location: Active is false")
            stop(client)
        }
    }

    func setActive(_ client: GeoClueClient, _ active: Bool) {
        guard let bus, (client.props.pointee.active != 0) != active else { return }
        client.props.pointee.active = active ? 1 : 0
        _ = cbus_client_changed(bus, client.owner, client.path, client.props, CBUS_PROP_ACTIVE.rawValue)
    }

    func updateInUse() {
        publishStatus()
        let inUse: Int32 = clients.values.contains(where: \.started) ? 1 : 0
        guard let bus, manager.pointee.in_use != inUse else { return }
        manager.pointee.in_use = inUse
        _ = cbus_manager_changed(bus)
    }

    /// EXACT while the source has a fix, NONE otherwise.
    func setAvailable(_ source: SourceState) {
        let level = GeoClueDecision.availableLevel(source)
        guard manager.pointee.available_accuracy_level != level else { return }
        manager.pointee.available_accuracy_level = level
        if let bus { _ = cbus_manager_changed(bus) }
    }
}
