import LocationCore
import LocationProtocol

/// Turns "the state is now S, because D" into a `.state` event only when
/// something changed, so consumers see each transition once and a retry loop
/// cannot flood them.
struct SourceStateReporter: Sendable {
    /// The state last reported, if any.
    private(set) var state: SourceState?
    private var detail: String?

    /// A reporter that has reported nothing.
    init() {}

    /// The event to send for `state` with `detail`, or `nil` when both are
    /// what was last reported.
    mutating func report(_ state: SourceState, _ detail: String) -> SourceEvent? {
        guard state != self.state || detail != self.detail else { return nil }
        self.state = state
        self.detail = detail
        return .state(state, detail: detail)
    }
}
