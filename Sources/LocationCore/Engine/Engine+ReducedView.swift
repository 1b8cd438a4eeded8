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
