/// One holder of a client, as a face names it (docs/authorization.md, "Who holds a client"): a
/// control connection whose app began the session, a program watching on one of the client's
/// sockets, a GeoClue client object its app started. The core keeps every face's holders in one
/// registry (`ClientHolders`).
public struct ClientHolder: Sendable, Hashable, CustomStringConvertible {
    /// The face a holder comes through.
    public enum Face: String, Sendable, Hashable {
        /// The control socket: an app's connection that sent `session CLIENT begin`.
        case control
        /// A program socket: a connection watching.
        case program
        /// The GeoClue face: a started client object.
        case geoclue
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

    /// `geoclue /org/freedesktop/GeoClue2/Client/3`.
    public var description: String { "\(face.rawValue) \(id)" }
}
