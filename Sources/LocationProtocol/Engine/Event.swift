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
    /// A prompt closed unanswered because the app that asked went away (`reason` says how); the
    /// client's status stays as it was (`ask`).
    case promptWithdrawn(Prompt, reason: String)
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
