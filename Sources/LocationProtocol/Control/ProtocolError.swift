import LocationValues

/// A request the server could not accept as a request: malformed, unknown,
/// too long, or not allowed. Replied as `{"id":…,"ok":false,"error":{"code":…,"message":…}}`.
public struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable codes, as they appear in replies.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// Not JSON, not an object, a non-scalar `id`, or no string `cmd`.
        case badRequest = "bad-request"
        /// `cmd` names no request.
        case unknownCommand = "unknown-command"
        /// A field is missing, of the wrong type, not an accepted word, out of range, or unknown.
        case invalidArgument = "invalid-argument"
        /// The request line is longer than `ControlProtocol.maximumLineLength`.
        case tooLong = "too-long"
        /// The peer may read but not change state (not root, not in the socket group).
        case notAuthorized = "not-authorized"
        /// The server has as many connections as it accepts; try again later.
        case busy
        /// The daemon is stopping: the last line of a `watch` stream, or the reply to a request it will not carry out.
        case shuttingDown = "shutting-down"
    }

    /// The code.
    public var code: Code
    /// A sentence saying what was wrong and what is accepted.
    public var message: String
    /// The request's `id`, when one could be read, to echo in the reply.
    public var id: JSONValue?

    /// An error from its parts.
    public init(_ code: Code, _ message: String, id: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }

    /// The error for a request line longer than the limit.
    public static func tooLong(id: JSONValue? = nil) -> ProtocolError {
        ProtocolError(
            .tooLong,
            "request line longer than \(ControlProtocol.maximumLineLength) bytes; send one JSON object per line",
            id: id)
    }

    /// The error for a peer that may not change state.
    public static func notAuthorized(command: String, id: JSONValue? = nil) -> ProtocolError {
        ProtocolError(
            .notAuthorized,
            "\(command) changes state, which needs root or membership of the daemon's socket group (socket_group in locationd.conf)",
            id: id)
    }

    /// The reply line carrying this error.
    public var reply: ControlReply { .error(id: id, code: code.rawValue, message: message) }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
