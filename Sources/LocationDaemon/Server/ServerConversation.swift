/// What a server built on `ServerLoop` speaks: the loop owns the sockets,
/// reading, writing, the bounds and closing, and knows no protocol; the
/// conversation decides who is served (identity, role, its own limits), what
/// a request line means and what is said on the way, and owns whatever it
/// keeps per connection (keyed by `ServerConnection.id`, made in `opened` and
/// dropped in `closed`). Every method is called on the loop's thread only.
///
/// A new server on Unix or loopback TCP sockets is a conversation, its
/// listeners (`UnixListener`, `LoopbackListener`) and a `ServerLoop` over them
/// started on a thread of its own, as the control socket's and the programs' servers do;
/// the hooks with defaults below are for the conversations that need them. (A
/// face on the system bus is no such server: the bus daemon holds its sockets.)
protocol ServerConversation: AnyObject, SendableMetatype {
    /// What a handler task hands back to the loop when it is done (`Never`
    /// for a conversation that answers on the loop's thread).
    associatedtype Completion: Sendable = Never

    /// The server as diagnostics name it (`control socket /run/locationd/control.sock`, `program sockets`).
    var name: String { get }
    /// Where its journal lines go.
    var journal: Diagnostics.Subsystem { get }
    /// A byte that ends a request besides `\n` (gpsd's `;`), or `nil` (the default).
    var requestTerminator: UInt8? { get }
    /// The longest request line taken.
    var maximumLineLength: Int { get }

    /// Whether to serve the peer just accepted on listener number `listener`, with the
    /// connections open now (`load`, for the conversation's limits); on `refuse` the
    /// conversation may write a last line to `fd`; the loop closes it.
    func admit(_ fd: Int32, listener: Int, load: ServerLoad) -> ServerAdmission
    /// What the server's connections are called in a `busy` refusal ("control connections").
    var connectionNoun: String { get }
    /// The line a peer accepted on `listener` gets when `admit` refused it `busy`
    /// (`ServerLimits.refusal` says why); none by default.
    func busyLine(_ reason: String, listener: Int) -> [UInt8]
    /// The line a streaming connection accepted on `listener` gets when it
    /// fell `backlog` bytes behind; none by default.
    func tooSlowLine(backlog: Int, listener: Int) -> [UInt8]
    /// The last line a streaming connection gets when the server stops, if any (none by default).
    func stoppingLine(for connection: ServerConnection) -> [UInt8]?
    /// A connection was accepted and registered (greet it, start its stream).
    func opened(_ connection: ServerConnection, loop: ServerLoop<Self>, now: Double)
    /// One request line from a connection.
    func dispatch(_ line: ServerConnection.Line, on connection: ServerConnection, loop: ServerLoop<Self>, now: Double)
    /// A handler task finished; `connection` is `nil` when it closed meanwhile.
    func complete(_ completion: Completion, on connection: ServerConnection?, loop: ServerLoop<Self>)
    /// Something woke the loop (a reply, a delivery for the programs): a chance to move queued data.
    func wake(_ loop: ServerLoop<Self>, now: Double)
    /// A stream (a streaming or watching connection) fell too far behind and
    /// is being closed; `closed` follows when it is.
    func cutOff(_ connection: ServerConnection, loop: ServerLoop<Self>)
    /// A connection was closed (by either side).
    func closed(_ connection: ServerConnection, loop: ServerLoop<Self>)
}

extension ServerConversation {
    var requestTerminator: UInt8? { nil }
    var connectionNoun: String { "connections" }
    func busyLine(_ reason: String, listener: Int) -> [UInt8] { [] }
    func tooSlowLine(backlog: Int, listener: Int) -> [UInt8] { [] }
    func stoppingLine(for connection: ServerConnection) -> [UInt8]? { nil }
    func opened(_ connection: ServerConnection, loop: ServerLoop<Self>, now: Double) {}
    func wake(_ loop: ServerLoop<Self>, now: Double) {}
    func cutOff(_ connection: ServerConnection, loop: ServerLoop<Self>) {}
    func closed(_ connection: ServerConnection, loop: ServerLoop<Self>) {}
}

/// What a conversation decides about a peer just accepted.
enum ServerAdmission {
    /// Serve it: who it is.
    case serve(PeerCredentials)
    /// Refuse it (counted as a refused peer).
    case refuse
    /// Refuse it for a connection limit: `busyLine` tells it `reason` (counted as refused busy).
    case busy(String)
}

/// The connections a server holds when a peer is accepted, for the conversation's limits.
struct ServerLoad {
    /// Connections open now.
    let open: Int
    fileprivate let perUser: [UInt32: Int]

    init(open: Int, perUser: [UInt32: Int]) {
        self.open = open
        self.perUser = perUser
    }

    /// How many of them user `uid` holds.
    func connections(ofUser uid: UInt32) -> Int { perUser[uid] ?? 0 }
}

extension ServerConversation where Completion == Never {
    /// No handler tasks, so nothing completes.
    func complete(_ completion: Never, on connection: ServerConnection?, loop: ServerLoop<Self>) {}
}
