/// The `cmd` word of every control request, written once (docs/protocol.md, "Requests"): the
/// name lists (`ControlRequest.commandNames`, `ControlRole.appSideCommandNames`), the decode
/// dispatch and the role table all come from here, and `locationctl`'s command table names its
/// daemon commands by it.
public enum CommandWord: String, Sendable, Hashable, CaseIterable {
    case hello, status, services, authorize, accuracy, request, prompts, answer, share, reset
    case requestFullAccuracy = "request-full-accuracy"
    case session, start, stop, locate, watch, report

    /// Whose word it is (docs/protocol.md, "Roles").
    public enum Side: Sendable, Hashable {
        /// A read: anyone who can connect.
        case read
        /// The user's side (what only the person grants): the operator's only.
        case user
        /// The app side (what an app asks for itself): the client's app and the operator.
        case app
    }

    /// Whose word it is.
    public var side: Side {
        switch self {
        case .hello, .status, .prompts, .watch, .report: .read
        case .services, .authorize, .accuracy, .answer, .share, .reset: .user
        case .request, .requestFullAccuracy, .session, .start, .stop, .locate: .app
        }
    }

    /// The fields after `cmd` it accepts, in the order `locationctl` takes them as arguments.
    public var fields: [String] {
        switch self {
        case .hello, .prompts: []
        case .status, .watch, .share, .reset, .start, .stop: ["client"]
        case .report: ["client", "since"]
        case .services: ["state"]
        case .authorize: ["client", "status"]
        case .accuracy: ["client", "accuracy"]
        case .request: ["client", "kind"]
        case .answer: ["client", "answer", "precise"]
        case .requestFullAccuracy: ["client", "purpose"]
        case .session: ["client", "state"]
        case .locate: ["client", "timeout"]
        }
    }
}
