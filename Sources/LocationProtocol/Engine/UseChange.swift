import LocationValues

/// A change of what a client asks for (#32: `watch` shows every change of what a client
/// gets): a session began or ended, updates started or stopped, a locate became pending or
/// ended — with the client's flags after it and a sentence saying why. The `use` event of
/// `watch`; never a coordinate.
public struct UseChange: Sendable, Hashable {
    /// Which change.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `session CLIENT begin`: the client is in use.
        case sessionBegin = "session-begin"
        /// `session CLIENT end`: the client is out of use.
        case sessionEnd = "session-end"
        /// `start`: the client asks for updates.
        case start
        /// `stop`: the client no longer asks for updates (a pending locate is cancelled with it).
        case stop
        /// `locate`: one fix is asked for (or the pending one restarted).
        case locate
        /// The pending locate ended: a fix was delivered, or none came in time.
        case locateEnded = "locate-ended"
    }

    /// The client.
    public var client: String
    /// Which change.
    public var kind: Kind
    /// In use after the change.
    public var inUse: Bool
    /// Updating after the change.
    public var updating: Bool
    /// A locate pending after the change.
    public var locatePending: Bool
    /// Why, or what it means: `logger is out of use; Allow Once ends after 10 s out of use`.
    public var message: String

    /// A change from its parts.
    public init(client: String, kind: Kind, inUse: Bool, updating: Bool, locatePending: Bool, message: String) {
        self.client = client
        self.kind = kind
        self.inUse = inUse
        self.updating = updating
        self.locatePending = locatePending
        self.message = message
    }

    /// `client`, `change`, `inUse`, `updating`, `locatePending`, `message`.
    public var jsonMembers: [(String, JSONValue)] {
        [
            ("client", .string(client)), ("change", .string(kind.rawValue)), ("inUse", .bool(inUse)),
            ("updating", .bool(updating)), ("locatePending", .bool(locatePending)), ("message", .string(message)),
        ]
    }

    /// Reads what `jsonMembers` writes (in an event object).
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "use")
        do throws(FieldReader.FieldError) {
            self.init(
                client: try f.string("client"),
                kind: try f.word("change", Kind.allCases.map(\.rawValue)) { Kind(rawValue: $0) },
                inUse: try f.bool("inUse"), updating: try f.bool("updating"),
                locatePending: try f.optionalBool("locatePending") ?? false, message: try f.optionalString("message") ?? "")
        } catch {
            throw error.decodeError
        }
    }
}
