import LocationValues

/// Whether a delivered fix is precise or obfuscated.
public enum DeliveredAccuracy: String, Sendable, Hashable {
    /// The receiver's fix (full or temporary-full accuracy).
    case full
    /// Obfuscated as docs/authorization.md §6 says.
    case reduced
}

/// A fix handed to one client's sink.
public struct Delivery: Sendable, Hashable {
    /// The client.
    public var client: String
    /// The fix as the client may see it (obfuscated when `accuracy == .reduced`).
    public var fix: Fix
    /// Full or reduced.
    public var accuracy: DeliveredAccuracy
    /// The reduced position of the running `reduced_interval` delivered again (a client starting
    /// afresh within it): its sinks hand it on, but the client's log already holds it.
    public var again: Bool

    /// A delivery from its parts.
    public init(client: String, fix: Fix, accuracy: DeliveredAccuracy, again: Bool = false) {
        self.client = client
        self.fix = fix
        self.accuracy = accuracy
        self.again = again
    }
}

/// What the caller must carry out after an engine input.
public enum Effect: Sendable, Hashable {
    /// Hand this fix to this client's sink (its log, watchers).
    case deliver(Delivery)
    /// Tell watchers.
    case event(Event)
    /// Something in `SavedState` changed: write the state file.
    case persist
}
