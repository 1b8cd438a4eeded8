import LocationProtocol

/// A client's open prompt as the engine holds it: what it asks, with the text
/// it showed, and only what answering it needs (a purpose only for full
/// accuracy). `Prompt` is how watchers and `prompts` see it.
enum PendingPrompt: Sendable, Hashable {
    /// "Allow … to use your location?" after `request while-using` or `request always`.
    case permission(RequestKind, text: String)
    /// "Change to Always Allow?" (ProvisionalAlways.swift).
    case alwaysUpgrade(text: String)
    /// Temporary full accuracy for a configured purpose (TemporaryFullAccuracy.swift).
    case fullAccuracy(purpose: String, text: String)
    /// The location button's one-time consent (iOS 15).
    case share(text: String)

    /// The prompt's kind word.
    var kind: PromptKind {
        switch self {
        case .permission(.whileUsing, _): .whileUsing
        case .permission(.always, _): .always
        case .alwaysUpgrade: .alwaysUpgrade
        case .fullAccuracy: .fullAccuracy
        case .share: .share
        }
    }

    /// The prompt as the protocol carries it.
    func prompt(client: String) -> Prompt {
        switch self {
        case .permission(_, let text), .alwaysUpgrade(let text), .share(let text):
            Prompt(client: client, kind: kind, text: text)
        case .fullAccuracy(let purpose, let text):
            Prompt(client: client, kind: .fullAccuracy, text: text, purpose: purpose)
        }
    }

    /// Whether it still asks something that can be answered (docs/authorization.md, "Prompts"): after
    /// every input the engine closes a prompt the input made moot.
    func isAnswerable(effective status: AuthorizationStatus, grant: Grant, accuracy: Accuracy) -> Bool {
        switch self {
        case .permission, .share:
            return status == .ask
        case .alwaysUpgrade:
            switch (status, grant) {
            case (.whileUsing, .whenInUse(temporary: nil)), (.always, .always(provisional: true)): return true
            default: return false
            }
        case .fullAccuracy:
            return (status == .whileUsing || status == .always) && !accuracy.deliversFull
        }
    }
}
