/// What the source says about its link and the receiver.
public enum SourceState: String, Sendable, Hashable, CaseIterable {
    /// Not connected (yet, or again): gpsd down, device unplugged.
    case connecting
    /// Connected, nothing reported yet.
    case connected
    /// Connected; the receiver reports no fix.
    case noFix = "no-fix"
    /// Connected; the receiver reports fixes.
    case fix
    /// A plain file read to its end and followed for more (a recording): no outage, nothing
    /// is wrong with a receiver — the fixes simply have not been written yet.
    case endOfFile = "end-of-file"
}

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

    /// A delivery from its parts.
    public init(client: String, fix: Fix, accuracy: DeliveredAccuracy) {
        self.client = client
        self.fix = fix
        self.accuracy = accuracy
    }
}

/// A client-facing error (`locationManager(_:didFailWithError:)`).
public enum ClientErrorCode: String, Sendable, Hashable {
    /// `kCLErrorLocationUnknown`: no fix now (receiver outage, or a `locate` timed out).
    case locationUnknown = "location-unknown"
    /// `kCLErrorDenied`: updates started while not authorized.
    case denied
}

/// Something watchers are told about. Location events are made by the daemon
/// from `Effect.deliver`.
public enum Event: Sendable, Hashable {
    /// A client's (effective status, flags, accuracy) changed.
    case authorization(ClientAuthorization)
    /// A prompt opened (`open: true`) or closed.
    case prompt(Prompt, open: Bool)
    /// A client-facing error.
    case error(client: String, code: ClientErrorCode, message: String)
    /// The source's state changed.
    case source(SourceState)
    /// The receiver's time went back: a new time base starts (reported once per jump).
    case timeJump(TimeJump)
    /// What a client asks for changed: session, updates, a locate (pending or ended).
    case use(UseChange)
    /// The receiver `best` clients follow changed (docs/sources.md, "Several receivers").
    case receiver(ReceiverChoice.Switch)
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
