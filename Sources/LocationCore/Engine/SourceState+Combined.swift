import LocationProtocol

extension SourceState {
    /// Several sources' states as the one state the engine keeps (docs/sources.md, "Several
    /// sources"): what the best of them offers. `fix` when any reports fixes; else `no-fix` when
    /// any receiver reports no fix; else `connected` when any is connected; else `end-of-file`
    /// only when every source is a file followed past its end (no outage then); else
    /// `connecting` (no source connected: an outage, even while a file waits at its end).
    /// No sources at all is `connecting`.
    public static func combined(_ states: [SourceState]) -> SourceState {
        if states.contains(.fix) { return .fix }
        if states.contains(.noFix) { return .noFix }
        if states.contains(.connected) { return .connected }
        if !states.isEmpty, states.allSatisfy({ $0 == .endOfFile }) { return .endOfFile }
        return .connecting
    }
}
