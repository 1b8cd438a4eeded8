/// What a reader of the daemon may see, decided once from who it is
/// (docs/protocol.md § Read tiers). The control server decides it when a
/// peer connects; any other server that hands out daemon state (e.g. a
/// gpsd-protocol socket) decides it the same way and filters through
/// `Disclosure`.
public enum ReadTier: String, Sendable, Hashable, CaseIterable {
    /// uid 0 or a member of `socket_group`: every read, with the receiver's
    /// position and `location` events while Location Services are on.
    case privileged
    /// Anyone else who can connect: state, counts and fix quality, never a coordinate.
    case unprivileged

    /// The tier of a peer that may (or may not) change state: the two are the same people.
    public init(mayChange: Bool) {
        self = mayChange ? .privileged : .unprivileged
    }
}
