import LocationValues

/// A face that narrows a client's deliveries to reduced accuracy on its own (a GeoClue client
/// object asking for a city, docs/geoclue.md "Accuracy"): the reduced position it shows is the
/// client's own, made as the engine makes it for a reduced client.
extension Engine {
    /// `client`'s reduced position for `fix`: within `reduced_interval` of the client's last
    /// reduced position, that same position again (nothing new is disclosed, and averaging gains
    /// nothing); otherwise `fix` reduced with the client's own secret and grid, which starts the
    /// next interval. `fix` nil asks only for the position of the interval running now. `nil`:
    /// none to give (an unknown client, or no reduced position in this interval).
    ///
    /// Never a new secret per face or object: the client's `ReducedAccuracyState` is the one its
    /// reduced deliveries use, and a change of its drift hour is saved with the next input.
    public mutating func reducedPosition(of client: String, for fix: Fix?, now: Double) -> Fix? {
        guard let i = index[client] else { return nil }
        let interval = clients[i].settings.reducedInterval
        guard clients[i].reducedLimit.isOpen(now: now, utc: now + wallClockOffset, interval: interval) else {
            return clients[i].lastReducedFix
        }
        guard let fix else { return nil }
        let out = ReducedAccuracy.obfuscate(fix, state: &clients[i].reduced, grid: clients[i].settings.reducedGrid)
        clients[i].reducedLimit.delivered(now: now)
        clients[i].reduced.lastDelivery = now + wallClockOffset
        clients[i].lastReducedFix = out
        persistPending = true
        return out
    }
}

/// A reduced client that starts afresh (`start`, `locate`) within `reduced_interval` of its last
/// reduced position gets that same position at once, on every face, rather than nothing until
/// the interval ends: nothing new is disclosed (docs/authorization.md §4, step 6).
extension Engine {
    /// Delivers client `i`'s reduced position of the running interval again, marked `again` (its log
    /// already holds it), if it is reduced, allowed positions now, and has one; false otherwise.
    mutating func deliverReducedAgain(_ i: Int, now: Double, effects: inout EffectList) -> Bool {
        guard !clients[i].deliversFull, authorizationRefusal(i) == nil, let again = clients[i].lastReducedFix,
            !clients[i].reducedLimit.isOpen(now: now, utc: now + wallClockOffset, interval: clients[i].settings.reducedInterval)
        else { return false }
        effects.deliver(client: i, fix: effects.add(again), accuracy: .reduced, again: true)
        clients[i].track.deliveredAgain(now: now)
        return true
    }

    /// Client `i`'s locate is answered by the reduced position delivered again.
    mutating func endLocateAgain(_ i: Int, effects: inout EffectList) {
        clients[i].locate = nil
        if !clients[i].updating { clients[i].anchor = nil }
        useChanged(
            i, .locateEnded, "\(clients[i].settings.name): locate ended: the reduced position of this interval delivered again",
            effects: &effects)
    }
}
