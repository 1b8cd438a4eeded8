/// What a prompt asks.
public enum PromptKind: String, Sendable, Hashable, CaseIterable {
    /// "Allow … to use your location?" after `request while-using`.
    case whileUsing = "while-using"
    /// The same alert after `request always`.
    case always
    /// "Change to Always Allow?" — the upgrade from while-using or provisional always.
    case alwaysUpgrade = "always-upgrade"
    /// Temporary full accuracy for a purpose.
    case fullAccuracy = "full-accuracy"
    /// The location button's one-time consent (iOS 15), before the first `share` grants.
    case share

    /// The answers this prompt accepts, in the order an alert shows them.
    public var answers: [Answer] {
        switch self {
        case .whileUsing, .always: [.allowOnce, .allowWhileUsing, .deny]
        case .alwaysUpgrade: [.keepWhileUsing, .changeToAlways]
        case .fullAccuracy, .share: [.allow, .deny]
        }
    }
}

/// A pending prompt: the iOS permission alert waiting for the user.
public struct Prompt: Sendable, Hashable {
    /// The client that asked.
    public var client: String
    /// What it asks.
    public var kind: PromptKind
    /// The text shown: the usage description, or the purpose string.
    public var text: String
    /// The purpose key, for a full-accuracy prompt.
    public var purpose: String?

    /// A prompt from its parts.
    public init(client: String, kind: PromptKind, text: String, purpose: String? = nil) {
        self.client = client
        self.kind = kind
        self.text = text
        self.purpose = purpose
    }

    /// The answers that close it.
    public var answers: [Answer] { kind.answers }
}
