extension Engine {
    /// The clients, in config order, whose raw capture (`raw_log`) takes receiver `device`'s
    /// bytes now: the client has a `raw_log`, follows that receiver (its pinned one; a `best`
    /// client every receiver, since any may feed it), passes delivery steps 1–2 (Location
    /// Services on, authorized), is updating, and gets full accuracy now (temporary full
    /// accuracy included). Asked for every chunk of bytes, so a capture stops at once when one
    /// of these ends.
    public func rawCaptureClients(device: String) -> [String] {
        guard services else { return [] }
        var names: [String] = []
        for i in clients.indices where clients[i].settings.rawLog != nil {
            if let pinned = clients[i].settings.receiver, pinned != device { continue }
            guard clients[i].deliversFull, clients[i].updating, authorizationRefusal(i) == nil else { continue }
            names.append(clients[i].settings.name)
        }
        return names
    }
}
