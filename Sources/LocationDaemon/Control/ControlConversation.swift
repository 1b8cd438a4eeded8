#if canImport(Glibc)
import Glibc
#endif
import LocationCore

/// The control protocol (SPEC §5.4) on a `ServerLoop`: one JSON request per
/// line, one reply each, and `watch` turning a connection into an event
/// stream. Peers come from `SO_PEERCRED`; change requests from peers that
/// may not change state are refused here, so the handler never sees them.
final class ControlConversation: ServerConversation {
    /// A handler task finished with a connection's request.
    enum Completion: Sendable {
        /// The reply is queued.
        case replied
        /// `watch` was answered: the watcher, or `nil` if it was refused.
        case watch(WatcherID?)
    }

    let name: String
    let maximumLineLength = ControlProtocol.maximumLineLength
    private let handler: any ControlHandler
    private let group: SocketGroup?
    private let adjustPeer: (@Sendable (PeerCredentials) -> PeerCredentials)?
    /// The watcher each watching connection is, by connection.
    private var watchers: [UInt64: WatcherID] = [:]

    init(
        path: String, handler: any ControlHandler, group: SocketGroup?, limits: ControlServer.Limits,
        adjustPeer: (@Sendable (PeerCredentials) -> PeerCredentials)?
    ) {
        name = "control socket \(path)"
        self.handler = handler
        self.group = group
        self.adjustPeer = adjustPeer
    }

    func stoppingLine(for connection: ServerConnection) -> [UInt8]? {
        let stopping = ControlReply.error(
            id: nil, code: ControlServer.shuttingDownCode, message: "locationd is stopping; the event stream ends here")
        return Array(stopping.line().utf8)
    }

    func admit(_ fd: Int32, listener: Int) -> PeerCredentials? {
        var peer: PeerCredentials
        switch PeerCredentials.of(socket: fd, group: group) {
        case .success(let credentials): peer = credentials
        case .failure(let error):
            // Unknown peer: let it read, never change.
            Diagnostics.warning("\(name): \(error); treating the peer as unprivileged")
            peer = PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max, mayChange: false)
        }
        if let adjustPeer { peer = adjustPeer(peer) }
        return peer
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
        let peer = connection.peer
        if request.access == .change && !peer.mayChange {
            loop.countNotAuthorized()
            let error = ProtocolError.notAuthorized(command: request.operation.name, id: request.id)
            connection.output.enqueue(Array(error.reply.line().utf8))
            return
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
        } else {
            loop.spawn {
                let reply = await handler.handle(request, from: peer)
                output.enqueue(Array(reply.line().utf8))
                inbox.complete(id, .replied)
                waker.signal()
            }
        }
    }

    func complete(_ completion: Completion, on connection: ServerConnection?, loop: ServerLoop<ControlConversation>) {
        guard let connection else {
            // The connection closed while the handler worked: a watcher it registered must go.
            if case .watch(let watcher?) = completion { unwatch(watcher, loop: loop) }
            return
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
    }
}
