/// One holder of a client, as a face names it (docs/authorization.md, "Who holds a client"): a
/// control connection whose app began the session, a program watching on one of the client's
/// sockets, a bus client object its app started. The core keeps every face's holders in one
/// registry (`ClientHolders`).
public struct ClientHolder: Sendable, Hashable, CustomStringConvertible {
    /// The face a holder comes through: each face declares its own as a static member beside it
    /// (`.control` in Control/, and each other face in its own folder), as `ReportSink`s are.
    public struct Face: Sendable, Hashable, Comparable {
        /// Its name in the journal and the audit log: `control`, `program`.
        public let rawValue: String
        /// Its holders as a person names them, plural: `programs`, `control connections`.
        public let holders: String

        /// A face named `rawValue`, whose holders are `holders`.
        public init(_ rawValue: String, holders: String) {
            self.rawValue = rawValue
            self.holders = holders
        }

        public static func == (lhs: Face, rhs: Face) -> Bool { lhs.rawValue == rhs.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
        public static func < (lhs: Face, rhs: Face) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The face it comes through.
    public var face: Face
    /// Which one within its face: a connection's number, a client object's path.
    public var id: String
    /// Whether it wants the client updating too (a program, a bus client), not only in use (a
    /// control connection's `session begin`).
    public var updates: Bool

    /// A holder from its parts.
    public init(_ face: Face, _ id: String, updates: Bool) {
        self.face = face
        self.id = id
        self.updates = updates
    }

    /// The face and the id: `program 7`.
    public var description: String { "\(face.rawValue) \(id)" }
}
