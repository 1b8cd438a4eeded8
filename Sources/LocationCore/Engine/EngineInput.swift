import LocationProtocol
import LocationValues

/// What drives the engine besides commands: fixes, source state and the clock.
public enum EngineInput: Sendable, Hashable {
    /// One receiver epoch from the source.
    case fix(Fix)
    /// The source's link or receiver state.
    case source(SourceState)
    /// Time passed (in live mode whenever `Engine.nextTimer` comes): timers fire.
    case tick
}
