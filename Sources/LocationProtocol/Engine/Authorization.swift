/// Accuracy authorization (`CLAccuracyAuthorization`), with temporary full accuracy.
public enum AccuracyAuthorization: Sendable, Hashable, CustomStringConvertible {
    /// Precise location.
    case full
    /// Approximate location (docs/authorization.md §6).
    case reduced
    /// Full accuracy granted for one purpose until the client is out of use for `once_grace` s.
    case temporaryFull(purpose: String)

    /// Whether fixes are delivered at full accuracy.
    public var isFull: Bool {
        if case .reduced = self { return false }
        return true
    }

    /// `full`, `reduced` or `temporary-full`.
    public var word: String {
        switch self {
        case .full: "full"
        case .reduced: "reduced"
        case .temporaryFull: "temporary-full"
        }
    }

    /// `full`, `reduced`, or `temporary-full (survey)`.
    public var description: String {
        if case .temporaryFull(let purpose) = self { return "temporary-full (\(purpose))" }
        return word
    }
}

/// Why a client's effective status differs from its stored one.
public enum EffectiveReason: String, Sendable, Hashable {
    /// Location Services are off: every client is effectively `never`.
    case servicesOff = "services-off"
    /// An administrator locked the client (`[policy] restricted`).
    case restricted
}

/// One client's authorization as clients and `status` see it. Events fire
/// only when (status, once, provisional, accuracy) change.
public struct ClientAuthorization: Sendable, Hashable {
    /// The client's name.
    public var client: String
    /// The effective status.
    public var status: AuthorizationStatus
    /// The stored status (what comes back when services are switched on).
    public var stored: AuthorizationStatus
    /// A temporary while-using grant (Allow Once or share).
    public var once: Bool
    /// Provisional always.
    public var provisional: Bool
    /// The accuracy authorization.
    public var accuracy: AccuracyAuthorization
    /// Why `status` differs from `stored`, if it does.
    public var reason: EffectiveReason?

    /// An authorization from its parts.
    public init(
        client: String, status: AuthorizationStatus, stored: AuthorizationStatus, once: Bool = false,
        provisional: Bool = false, accuracy: AccuracyAuthorization = .full, reason: EffectiveReason? = nil
    ) {
        self.client = client
        self.status = status
        self.stored = stored
        self.once = once
        self.provisional = provisional
        self.accuracy = accuracy
        self.reason = reason
    }

    /// `while-using (once)`, `always (provisional)`, `never (services off)`.
    public var statusDescription: String {
        var flags: [String] = []
        if once { flags.append("once") }
        if provisional { flags.append("provisional") }
        if let reason { flags.append(reason == .servicesOff ? "services off" : "restricted by policy") }
        return flags.isEmpty ? status.rawValue : "\(status.rawValue) (\(flags.joined(separator: ", ")))"
    }
}
