/// Who may see a receiver's satellites (docs/authorization.md §9). Satellite
/// geometry narrows a position, so a receiver's sky goes only with its
/// full-accuracy fixes: to the clients that got one of them lately and may
/// still get the next.
extension Engine {
    /// Seconds after a client's last delivery within which its programs get the sky of the
    /// receiver that fix came from.
    public static let skyWindow = 5.0

    /// The clients, in config order, whose programs may get `device`'s sky now: each follows that
    /// receiver (its pinned one, or the one `best` clients follow), passes delivery steps 1–3
    /// (Location Services on, authorized, in use, updating or locating), gets full accuracy now
    /// (temporary full accuracy included), and got a fix from that receiver within `skyWindow`
    /// seconds. A reduced-accuracy client never does.
    public func skyClients(device: String, now: Double) -> [String] {
        guard services, let base = timeBases.id(of: device) else { return [] }
        var names: [String] = []
        for i in clients.indices where follows(i, device) && clients[i].deliversFull && isEligible(i) {
            let track = clients[i].track
            guard let at = track.lastAt, now - at <= Self.skyWindow, now >= at,
                ReceiverTimeBases.sameReceiver(track.lastBase, base)
            else { continue }
            names.append(clients[i].settings.name)
        }
        return names
    }
}
