import LocationProtocol

/// A pinned client's own outage (docs/sources.md, "Several receivers"): a client with
/// `receiver = DEVICE` takes only that receiver's fixes, so when that receiver has given no
/// usable fix for `failover` seconds (or has not reported since the engine started) the client is
/// in an outage whatever the other receivers do. It is told `location-unknown` once per outage
/// while updating, as for the source-wide outage of `best` clients (Engine+Timers.swift), and the
/// receiver's next usable fix ends it.
extension Engine {
    /// When client `i`'s pinned receiver's silence becomes an outage; `infinity` for a `best`
    /// client, one already in its outage, or a receiver whose source is at the end of its file
    /// (#32: no outage).
    func pinnedOutageDeadline(_ i: Int) -> Double {
        guard let pinned = clients[i].settings.receiver, !clients[i].pinnedOutage, !pinnedAtEndOfFile(i) else { return .infinity }
        guard let since = receivers.seen[pinned]?.lastUsableAt ?? startedAt else { return .infinity }
        // A file that grows again gives its receiver `failover` seconds from then, as a start does.
        return max(since, resumedAt[pinned] ?? since) + receivers.failover
    }

    /// With several sources: the receivers whose source is a file followed past its end at `now`.
    /// One that leaves the set has `failover` seconds from `now` before its silence is an outage.
    public mutating func setReceiversAtEndOfFile(_ devices: Set<String>, now: Double) {
        guard devices != receiversAtEndOfFile else { return }
        for device in receiversAtEndOfFile.subtracting(devices) { resumedAt[device] = now }
        receiversAtEndOfFile = devices
        recomputePinnedDeadline()
    }

    /// Whether client `i` is pinned to a receiver whose source is a file followed past its end.
    func pinnedAtEndOfFile(_ i: Int) -> Bool {
        guard let pinned = clients[i].settings.receiver else { return false }
        return source == .endOfFile || receiversAtEndOfFile.contains(pinned)
    }

    /// Whether client `i`'s pinned receiver is silent at `now` (what `status` says; it runs no timers).
    func pinnedReceiverSilent(_ i: Int, now: Double) -> Bool {
        clients[i].pinnedOutage || now >= pinnedOutageDeadline(i)
    }

    /// Starts the outage of every pinned client whose receiver's silence has reached `failover` seconds.
    mutating func runPinnedTimers(now: Double) {
        for i in clients.indices where now >= pinnedOutageDeadline(i) {
            clients[i].pinnedOutage = true
        }
    }

    /// Device `device` gave a usable fix at `now` (some client is pinned: `anyPinned`): the outage
    /// of the clients pinned to it is over, and their failover starts again from now. The earliest
    /// failover is set again from every pinned client, so that it is never early while the fixes
    /// come: the readers carry it in their wait (`outageTimer`) and no tick comes for it.
    mutating func endPinnedOutages(_ device: String, now: Double) {
        for i in clients.indices where clients[i].pinnedOutage && clients[i].settings.receiver == device {
            clients[i].pinnedOutage = false
            clients[i].outageNotified = false
        }
        recomputePinnedDeadline()
    }

    /// Sets the earliest pinned failover (`pinnedDeadline`) from every client, and whether any is pinned.
    mutating func recomputePinnedDeadline() {
        var earliest = Double.infinity
        var pinned = false
        for i in clients.indices where clients[i].settings.receiver != nil {
            pinned = true
            earliest = min(earliest, pinnedOutageDeadline(i))
        }
        pinnedDeadline = earliest
        anyPinned = pinned
    }

    /// Tells each updating pinned client in its outage that could receive fixes, once per outage.
    mutating func notifyPinnedOutages(now: Double, effects: inout EffectList) {
        for i in clients.indices
        where clients[i].pinnedOutage && clients[i].updating && !clients[i].outageNotified && allowsDelivery(i) {
            clients[i].outageNotified = true
            let why = pinnedSilence(i, now: now) ?? "its receiver has given no usable fix"
            effects.append(.event(.error(client: clients[i].settings.name, code: .locationUnknown, message: why)))
        }
    }

    /// "its receiver B (receiver = B) has given no usable fix for 4 s", or "has not reported …"
    /// with the receivers that do; `nil` for a `best` client.
    func pinnedSilence(_ i: Int, now: Double) -> String? {
        guard let pinned = clients[i].settings.receiver else { return nil }
        let its = "its receiver \(pinned) (receiver = \(pinned))"
        guard let seen = receivers.seen[pinned] else {
            let others = receivers.seen.names.sorted().map(ReceiverChoice.Switch.name).joined(separator: ", ")
            let since = startedAt.map { " for \(TextFormat.duration(now - $0))" } ?? ""
            return its + " has not reported\(since)" + (others.isEmpty ? "" : "; receivers reporting: \(others)")
        }
        let how = seen.lastUsableAt.map { "for \(TextFormat.duration(now - $0))" } ?? "since it first reported"
        return its + " has given no usable fix \(how)"
    }
}
