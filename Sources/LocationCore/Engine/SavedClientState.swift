import LocationProtocol

/// One client's permanent state in `state.json`.
public struct SavedClientState: Sendable, Hashable {
    /// The client's name.
    public var name: String
    /// The stored status (a client on Allow Once is saved as `ask`: the grant ends with the daemon).
    public var status: AuthorizationStatus
    /// Provisional always.
    public var provisional: Bool
    /// The Precise Location switch (temporary full accuracy is not saved).
    public var fullAccuracy: Bool
    /// Whether the one always-upgrade prompt has been shown.
    public var upgradePromptShown: Bool
    /// Whether the user allowed the location button (its one-time share prompt).
    public var shareConsent: Bool
    /// The reduced-accuracy offset, its random source and its clocks.
    public var reduced: ReducedAccuracyState

    /// A saved client from its parts.
    public init(
        name: String, status: AuthorizationStatus, provisional: Bool, fullAccuracy: Bool, upgradePromptShown: Bool,
        shareConsent: Bool = false, reduced: ReducedAccuracyState
    ) {
        self.name = name
        self.status = status
        self.provisional = provisional
        self.fullAccuracy = fullAccuracy
        self.upgradePromptShown = upgradePromptShown
        self.shareConsent = shareConsent
        self.reduced = reduced
    }
}
