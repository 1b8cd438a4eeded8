import LocationProtocol

/// What `status` suggests doing about a client that gets no positions (docs/authorization.md
/// §4, "What is not delivered"): a value, not a command line — `locationctl` puts it to its
/// reader through its own command table, as a command to run or one to ask the operator for.
public enum NextStep: Sendable, Hashable, CaseIterable {
    /// Switch Location Services on.
    case servicesOn
    /// Answer the client's permission prompt.
    case answerPermission
    /// Answer the client's share prompt (the location button's first use).
    case answerShare
    /// Answer the upgrade prompt with change-to-always.
    case answerUpgrade
    /// Authorize it while using.
    case authorizeWhileUsing
    /// Authorize it always.
    case authorizeAlways
    /// Begin its session (put it in use).
    case beginSession
    /// Start its updates.
    case start
    /// Give it full accuracy.
    case fullAccuracy

    /// The command that takes the step for `client`.
    public func command(client: String) -> Command {
        switch self {
        case .servicesOn: .services(on: true)
        case .answerPermission: .answer(client: client, answer: .allowWhileUsing)
        case .answerShare: .answer(client: client, answer: .allow)
        case .answerUpgrade: .answer(client: client, answer: .changeToAlways)
        case .authorizeWhileUsing: .authorize(client: client, status: .whileUsing)
        case .authorizeAlways: .authorize(client: client, status: .always)
        case .beginSession: .session(client: client, inUse: true)
        case .start: .start(client: client)
        case .fullAccuracy: .accuracy(client: client, full: true)
        }
    }
}
