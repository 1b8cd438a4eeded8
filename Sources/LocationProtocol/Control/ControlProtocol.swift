/// Constants of the control protocol (docs/protocol.md) shared by the
/// daemon's server, `locationctl` and replay events.
public enum ControlProtocol {
    /// The protocol version `hello` reports. Bumped only for incompatible changes.
    public static let version = 1
    /// The longest request line accepted, in bytes, not counting the newline.
    public static let maximumLineLength = 65_536
    /// Where the daemon listens unless configured otherwise.
    public static let defaultSocketPath = "/run/locationd/control.sock"
    /// The environment variable that overrides the socket path for `locationctl`.
    public static let socketEnvironmentVariable = "LOCATIOND_SOCKET"
}

/// What a request may do, which decides who may send it: anyone who can
/// connect may read; changing state needs uid 0 or the socket group.
public enum ControlAccess: String, Sendable, Hashable {
    /// `hello`, `status`, `prompts`, `watch`.
    case read
    /// Every state-changing command.
    case change
}
