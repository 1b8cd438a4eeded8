/// Several sources (docs/sources.md, "Several sources"): the engine keeps one source state, all
/// sources' combined (`SourceState.combined`); what is per source comes in here.
extension Engine {
    /// One source of several reconnected at `now` (gpsd restarted, a device plugged in again): the
    /// receivers it brought, as the engine names them, search for a first fix again (their TTFF
    /// starts over), while the other sources' receivers keep theirs.
    public mutating func sourceReconnected(receivers: [String], now: Double) {
        self.receivers.sourceReconnected(now: now, receivers: receivers)
    }
}
