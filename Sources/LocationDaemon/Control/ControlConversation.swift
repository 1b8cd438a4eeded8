#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol

/// The control protocol (docs/protocol.md) on a `ServerLoop`: one JSON request per
/// line, one reply each, and `watch` turning a connection into an event
/// stream. Peers come from `SO_PEERCRED` (and `SO_PEERGROUPS`, and their
/// unit through a pidfd); requests a peer's role may not send are refused
/// here (`ControlRole`), and again by the handler (`EngineOwner.handle`).
///
/// A `session CLIENT begin` from the client's app makes the connection a
/// holder of the client (`ClientHolder`, face `control`) in the core's one
/// registry, and `session CLIENT end` or the connection closing (its process
/// gone) lets go: the session ends when the last holder of every face has
/// gone (docs/authorization.md, "Apps" and "Who holds a client").
final class ControlConversation: ServerConversation {
    /// A handler task finished with a connection's request.
    enum Completion: Sendable {
        /// The reply is queued; `session` is the client whose session the
        /// connection's app began (`true`) or ended (`false`), if it did.
        case replied(session: Session?)
        /// `watch` was answered: the watcher, or `nil` if it was refused.
        case watch(WatcherID?)
    }

    /// A session an app began or ended, and who sent it (the `session end`
    /// sent when its connections are gone is audited as theirs).
    struct Session: Sendable {
        var client: String
        var began: Bool
        var peer: ControlPeer
        /// The connection that holds it.
        var connection: UInt64
    }

    let name: String
    let journal = Diagnostics.control
    let maximumLineLength = ControlProtocol.maximumLineLength
    private let limits: ControlServer.Limits
    /// Each connection's peer as the control plane sees it (role, apps), by connection.
    private var peers: [UInt64: ControlPeer] = [:]
    /// The peer `admit` just let in, for `opened` (the loop calls one right after the other).
    private var pendingPeer: ControlPeer?
    private let handler: any ControlHandler
    private let group: SocketGroup?
    private let adjustPeer: (@Sendable (ControlPeer) -> ControlPeer)?
    /// The watcher each watching connection is, by connection.
    private var watchers: [UInt64: WatcherID] = [:]
    /// The clients each connection's app holds, by connection.
    private var sessions: [UInt64: Set<String>] = [:]
    /// Who each client's app is.
    private let apps: AppDirectory

    init(
        path: String, handler: any ControlHandler, group: SocketGroup?, limits: ControlServer.Limits,
        adjustPeer: (@Sendable (ControlPeer) -> ControlPeer)?, apps: AppDirectory = AppDirectory()
    ) {
        name = "control socket \(path)"
        self.handler = handler
        self.group = group
        self.apps = apps
        self.adjustPeer = adjustPeer
        self.limits = limits
    }

    func stoppingLine(for connection: ServerConnection) -> [UInt8]? {
        let stopping = ControlReply.error(
            id: nil, code: ControlServer.shuttingDownCode, message: "locationd is stopping; the event stream ends here")
        return Array(stopping.line().utf8)
    }

    func admit(_ fd: Int32, listener: Int, load: ServerLoad) -> ServerAdmission {
        var peer: ControlPeer
        switch ControlPeer.of(socket: fd, group: group, apps: apps) {
        case .success(let credentials): peer = credentials
        case .failure(let error):
            // Unknown peer: let it read, never change.
            Diagnostics.control.warning("\(name): \(error); treating the peer as unprivileged")
            peer = ControlPeer(pid: 0, uid: UInt32.max, gid: UInt32.max, mayChange: false)
        }
        if let adjustPeer { peer = adjustPeer(peer) }
        // Connections kept in reserve are for those who may change state.
        if let reason = limits.refusal(
            uid: peer.uid, reserved: peer.mayChange, open: load.open, ofUser: load.connections(ofUser: peer.uid),
            serving: connectionNoun)
        {
            return .busy(reason)
        }
        pendingPeer = peer
        return .serve(PeerCredentials(pid: peer.pid, uid: peer.uid, gid: peer.gid))
    }

    func opened(_ connection: ServerConnection, loop: ServerLoop<ControlConversation>, now: Double) {
        peers[connection.id] = pendingPeer ?? ControlPeer(pid: 0, uid: UInt32.max, gid: UInt32.max, mayChange: false)
        pendingPeer = nil
    }

    /// The control protocol's `too-slow` error, the last line of a watcher cut off.
    func tooSlowLine(backlog: Int, listener: Int) -> [UInt8] {
        let reply = ControlReply.error(
            id: nil, code: ControlServer.tooSlowCode,
            message: "this watcher fell more than \(backlog) bytes behind, so locationd dropped its events "
                + "and closed the stream; read events as they come, or watch one client only")
        return Array(reply.line().utf8)
    }

    let connectionNoun = "control connections"

    func busyLine(_ reason: String, listener: Int) -> [UInt8] {
        Array(ProtocolError(.busy, reason).reply.line().utf8)
    }

    func dispatch(
        _ line: ServerConnection.Line, on connection: ServerConnection, loop: ServerLoop<ControlConversation>, now: Double
    ) {
        let bytes: [UInt8]
        switch line {
        case .tooLong:
            loop.countMalformed()
            connection.output.enqueue(Array(ProtocolError.tooLong().reply.line().utf8))
            return
        case .request(let request):
            bytes = request
        }
        let request: ControlRequest
        switch ControlRequest.decode(bytes) {
        case .failure(let error):
            loop.countMalformed()
            connection.output.enqueue(Array(error.reply.line().utf8))
            return
        case .success(let decoded):
            request = decoded
        }
        guard let peer = peers[connection.id] else { return }
        if let error = peer.role.refusal(request, group: group?.name) {
            loop.countRefusedRequest()
            connection.output.enqueue(Array(error.reply.line().utf8))
            return
        }
        // A session the app begins or ends on this connection: held by it (see the type).
        var session: Session?
        if case .command(.session(let client, let inUse)) = request.operation, peer.apps.contains(client) {
            session = Session(client: client, began: inUse, peer: peer, connection: connection.id)
        }
        connection.inFlight = true
        let handler = self.handler
        let output = connection.output
        let inbox = loop.inbox
        let waker = loop.waker
        let id = connection.id
        if case .watch(let client) = request.operation {
            loop.spawn {
                let watcher = await handler.watch(request, client: client, from: peer, sink: output)
                inbox.complete(id, .watch(watcher))
                waker.signal()
            }
        } else if let session {
            let holder = Self.holder(id)
            loop.spawn {
                let reply =
                    session.began
                    ? await handler.hold(session.client, by: holder, as: peer, id: request.id)
                    : await handler.release(session.client, by: holder, as: peer, id: request.id)
                output.enqueue(Array(reply.line().utf8))
                inbox.complete(id, .replied(session: reply.error == nil ? session : nil))
                waker.signal()
            }
        } else {
            loop.spawn {
                let reply = await handler.handle(request, from: peer)
                output.enqueue(Array(reply.line().utf8))
                inbox.complete(id, .replied(session: reply.error == nil ? session : nil))
                waker.signal()
            }
        }
    }

    func complete(_ completion: Completion, on connection: ServerConnection?, loop: ServerLoop<ControlConversation>) {
        guard let connection else {
            // The connection closed while the handler worked: a watcher it registered must go,
            // and a session it began ends with it.
            if case .watch(let watcher?) = completion { unwatch(watcher, loop: loop) }
            if case .replied(let session?) = completion, session.began {
                release(session.client, by: session.connection, as: session.peer, loop: loop)
            }
            return
        }
        if case .replied(let session?) = completion {
            var held = sessions[connection.id, default: []]
            if session.began {
                held.insert(session.client)
            } else {
                held.remove(session.client)
            }
            sessions[connection.id] = held.isEmpty ? nil : held
        }
        if case .watch(let watcher?) = completion {
            watchers[connection.id] = watcher
            connection.mode = .watching
            // The stream has begun: whatever else the peer sent is ignored.
            connection.dropInput()
        }
    }

    private func unwatch(_ watcher: WatcherID, loop: ServerLoop<ControlConversation>) {
        let handler = self.handler
        loop.spawn { await handler.unwatch(watcher) }
    }

    func cutOff(_ connection: ServerConnection, loop: ServerLoop<ControlConversation>) {
        if let watcher = watchers.removeValue(forKey: connection.id) { unwatch(watcher, loop: loop) }
    }

    func closed(_ connection: ServerConnection, loop: ServerLoop<ControlConversation>) {
        if let watcher = watchers.removeValue(forKey: connection.id) { unwatch(watcher, loop: loop) }
        let peer = peers.removeValue(forKey: connection.id)
        for client in sessions.removeValue(forKey: connection.id) ?? [] {
            if let peer { release(client, by: connection.id, as: peer, loop: loop) }
        }
    }

    /// Connection `id` as a holder of the clients its app began a session of.
    static func holder(_ id: UInt64) -> ClientHolder {
        ClientHolder(.control, "\(id)", updates: false)
    }

    /// Connection `connection` went: it no longer holds `client` (the core ends the session when
    /// it was the last holder of every face).
    private func release(_ client: String, by connection: UInt64, as peer: ControlPeer, loop: ServerLoop<ControlConversation>) {
        let handler = self.handler
        let name = self.name
        let holder = Self.holder(connection)
        loop.spawn {
            let reply = await handler.release(client, by: holder, as: peer, id: nil)
            if let (code, message) = reply.error {
                Diagnostics.control.warning("\(name): a connection of \(client)'s app went; session end: \(code): \(message)")
            }
        }
    }
}

extension ClientHolder.Face {
    /// The control socket: an app's connection that sent `session CLIENT begin`.
    public static let control = ClientHolder.Face("control", holders: "control connections")
}
