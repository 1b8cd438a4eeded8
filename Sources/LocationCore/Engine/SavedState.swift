/// What the engine keeps across restarts (`state.json`): the Location
/// Services switch and each client's permanent state. Allow Once,
/// temporary full accuracy, pending prompts and pending locates are not
/// saved, so a restart ends them as docs/authorization.md §1 and §3 say. Its JSON form is
/// SavedState+JSON.swift.
public struct SavedState: Sendable, Hashable {
    /// The format version this build writes (it reads 1 too).
    public static let currentVersion = 2

    /// The Location Services switch.
    public var services: Bool
    /// Per client, in config order.
    public var clients: [SavedClientState]

    /// A saved state from its parts.
    public init(services: Bool, clients: [SavedClientState]) {
        self.services = services
        self.clients = clients
    }

    /// The saved state of the named client, if any.
    public func client(_ name: String) -> SavedClientState? {
        clients.first { $0.name == name }
    }
}
