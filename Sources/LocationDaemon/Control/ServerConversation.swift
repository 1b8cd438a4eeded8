/// What a server built on `ServerLoop` speaks: the loop owns the sockets,
/// reading, writing, the bounds and closing; the conversation decides who is
/// served, what a request line means and what is said on the way, and owns
/// whatever it keeps per connection (keyed by `ServerConnection.id`, made in
/// `opened` and dropped in `closed`). Every method is called on the loop's
/// thread only. A new server (HTTP, D-Bus) is a conversation only: the
/// hooks with defaults below are for the servers that need them.
protocol ServerConversation: AnyObject, SendableMetatype {
    /// What a handler task hands back to the loop when it is done (`Never`
    /// for a conversation that answers on the loop's thread).
    associatedtype Completion: Sendable = Never

    /// The server as diagnostics name it (`control socket /run/locationd/control.sock`).
    var name: String { get }
    /// A byte that ends a request besides `\n` (gpsd's `;`), or `nil` (the default).
    var requestTerminator: UInt8? { get }
    /// The longest request line taken.
    var maximumLineLength: Int { get }

    /// The peer just accepted on listener number `listener`, or `nil` to refuse
    /// it (the conversation may write a last line to `fd`; the loop closes it).
    func admit(_ fd: Int32, listener: Int) -> PeerCredentials?
    /// What the server's connections are called in a `busy` refusal ("control connections").
    var connectionNoun: String { get }
    /// The line a peer accepted on `listener` gets when a connection limit
    /// refuses it (`ControlServer.Limits.refusal` says why); none by default.
    func busyLine(_ reason: String, listener: Int) -> [UInt8]
    /// A connection limit refused a peer accepted on `listener` (the loop
    /// counts it in its statistics; the program sockets count it per client too).
    func refusedBusy(listener: Int)
    /// The line a streaming connection accepted on `listener` gets when it
    /// fell `backlog` bytes behind (by default the control protocol's `too-slow` error).
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
    /// Nothing beyond the loop's own count.
    func refusedBusy(listener: Int) {}
    func tooSlowLine(backlog: Int, listener: Int) -> [UInt8] { ConnectionOutput.tooSlowLine(backlog: backlog) }
    func stoppingLine(for connection: ServerConnection) -> [UInt8]? { nil }
    func opened(_ connection: ServerConnection, loop: ServerLoop<Self>, now: Double) {}
    func wake(_ loop: ServerLoop<Self>, now: Double) {}
    func cutOff(_ connection: ServerConnection, loop: ServerLoop<Self>) {}
    func closed(_ connection: ServerConnection, loop: ServerLoop<Self>) {}
}

extension ServerConversation where Completion == Never {
    /// No handler tasks, so nothing completes.
    func complete(_ completion: Never, on connection: ServerConnection?, loop: ServerLoop<Self>) {}
}
