#if canImport(Glibc)
import Glibc
#endif
import CSupport
import LocationSystem
import Synchronization

/// What handler tasks tell the loop, and the stop request.
final class ServerInbox<Completion: Sendable>: Sendable {
    private struct State {
        var completions: [(UInt64, Completion)] = []
        var stop = false
    }

    private let state = Mutex(State())

    func complete(_ connection: UInt64, _ completion: Completion) {
        state.withLock { $0.completions.append((connection, completion)) }
    }

    func requestStop() {
        state.withLock { $0.stop = true }
    }

    /// The completions since the last call, and whether to stop.
    func take() -> (completions: [(UInt64, Completion)], stop: Bool) {
        state.withLock { state in
            defer { state.completions.removeAll() }
            return (state.completions, state.stop)
        }
    }
}

/// The event loop of a socket server (the control socket, the programs'
/// sockets): one thread multiplexing the listening sockets, every
/// connection and a wake-up eventfd with `poll(2)`. The loop owns reading,
/// writing, the bounds and closing; its `Conversation` says what the lines
/// mean. Handler calls run in tasks; their replies come back through each
/// connection's `ConnectionOutput` and the inbox.
///
/// `@unchecked Sendable`: after `run()` starts, the mutable state below (and
/// the conversation) is touched only by the loop thread; other threads use
/// only `inbox`, `waker`, `published` and `thread`, which are `Sendable`
/// themselves.
final class ServerLoop<Conversation: ServerConversation>: @unchecked Sendable {
    let inbox = ServerInbox<Conversation.Completion>()
    let waker: Wakeup
    let published = Mutex(ServerStatistics())
    /// The loop's thread, once started (`ServerLoop+Thread`).
    let thread = Mutex(ServerThreadState.idle)
    /// What the lines mean; touched only by the loop thread.
    let conversation: Conversation

    private let listeners: [Int32]
    private let limits: ServerLimits
    private let executor: (any TaskExecutor)?

    private var connections: [UInt64: ServerConnection] = [:]
    private var connectionsOfUser: [UInt32: Int] = [:]
    private var nextID: UInt64 = 1
    private var statistics = ServerStatistics()
    private var acceptPausedUntil = 0.0
    private var acceptFailing = false
    private var scratch = [UInt8](repeating: 0, count: 16_384)

    init(
        listeners: [Int32], conversation: Conversation, limits: ServerLimits, executor: (any TaskExecutor)?
    ) throws(SystemError) {
        self.listeners = listeners
        self.conversation = conversation
        self.executor = executor
        self.limits = limits
        self.waker = try Wakeup()
    }

    /// The server as its journal lines name it, once.
    private var name: String { conversation.name }

    // MARK: - The loop

    /// Serves until `inbox.requestStop()`; then closes every connection.
    func run() {
        var pollFDs: [pollfd] = []
        var polled: [ServerConnection] = []
        while true {
            let now = SystemClock.monotonic()
            pollFDs.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            pollFDs.append(pollfd(fd: waker.descriptor, events: Int16(POLLIN), revents: 0))
            let accepting = now >= acceptPausedUntil
            if accepting {
                for fd in listeners { pollFDs.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            }
            let base = pollFDs.count
            for connection in connections.values where !connection.peerGone {
                pollFDs.append(pollfd(fd: connection.fd, events: events(for: connection), revents: 0))
                polled.append(connection)
            }
            let timeout = pollTimeout(now: now, accepting: accepting)
            let ready = pollFDs.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
            if ready < 0 && errno != EINTR {
                conversation.journal.error("\(name): poll failed: \(String(cString: strerror(errno))); retrying")
                usleep(100_000)
                continue
            }
            if pollFDs[0].revents != 0 { waker.reset() }
            let (completions, stop) = inbox.take()
            if stop { break }
            let after = SystemClock.monotonic()
            for (id, completion) in completions { complete(id, completion, now: after) }
            if accepting {
                for (index, fd) in listeners.enumerated() where pollFDs[1 + index].revents != 0 {
                    acceptConnections(on: fd, listener: index, now: after)
                }
            }
            conversation.wake(self, now: after)
            if ready > 0 {
                for (index, connection) in polled.enumerated() {
                    // A connection closed above may have its descriptor number reused by one just accepted.
                    guard connections[connection.id] != nil else { continue }
                    let revents = Int32(pollFDs[base + index].revents)
                    if revents != 0 { handle(connection, revents: revents, now: after) }
                }
            }
            for connection in Array(connections.values) { service(connection, now: after) }
            publish()
        }
        shutDown()
    }

    private func events(for connection: ServerConnection) -> Int16 {
        var events: Int32 = 0
        switch connection.mode {
        case .requests:
            if !connection.inFlight && !connection.backlogged && !connection.eof
                && connection.output.pendingBytes <= limits.replyBacklog
            {
                events |= Int32(POLLIN)
            }
        case .watching:
            // Read (and ignore) what a watcher sends, to notice when it goes.
            if !connection.eof { events |= Int32(POLLIN) }
        case .closing:
            break
        }
        if !connection.writable { events |= Int32(POLLOUT) }
        return Int16(truncatingIfNeeded: events)
    }

    private func pollTimeout(now: Double, accepting: Bool) -> Int32 {
        var deadline = Double.infinity
        if !accepting { deadline = acceptPausedUntil }
        for connection in connections.values {
            if connection.backlogged { return 0 }
            switch connection.mode {
            case .requests where !connection.inFlight && !connection.streaming:
                deadline = min(deadline, connection.lastActivity + limits.idleTimeout)
                if let since = connection.partialLineSince { deadline = min(deadline, since + limits.lineTimeout) }
            case .closing(let end):
                deadline = min(deadline, end)
            default:
                break
            }
        }
        guard deadline.isFinite else { return -1 }
        let milliseconds = ((deadline - now) * 1000).rounded(.up)
        return Int32(max(0, min(milliseconds, 3_600_000)))
    }

    // MARK: - Accepting

    private func acceptConnections(on listenFD: Int32, listener: Int, now: Double) {
        // A bounded batch per round, so a connection storm cannot starve the others.
        for _ in 0..<64 {
            let fd = csupport_accept_nonblocking(listenFD)
            if fd < 0 {
                let code = errno
                switch code {
                case EINTR, ECONNABORTED, EPROTO:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    if acceptFailing {
                        acceptFailing = false
                        conversation.journal.notice("\(name): accepting connections again")
                    }
                    return
                default:
                    // Out of descriptors or memory: pause accepting rather than spin on a readable listener.
                    if !acceptFailing {
                        acceptFailing = true
                        conversation.journal.warning(
                            "\(name): cannot accept a connection (\(String(cString: strerror(code)))); "
                                + "pausing new connections briefly; this is reported once until it recovers")
                    }
                    acceptPausedUntil = now + 0.1
                    return
                }
            }
            let peer: PeerCredentials
            switch conversation.admit(fd, listener: listener, load: ServerLoad(open: connections.count, perUser: connectionsOfUser)) {
            case .serve(let admitted):
                peer = admitted
            case .refuse:
                statistics.refusedPeers += 1
                Glibc.close(fd)
                continue
            case .busy(let reason):
                refuseBusy(fd, reason, listener: listener)
                continue
            }
            connectionsOfUser[peer.uid, default: 0] += 1
            let id = nextID
            nextID += 1
            let output = ConnectionOutput(
                watcherBacklog: limits.watcherBacklog, waker: waker,
                tooSlowLine: conversation.tooSlowLine(backlog: limits.watcherBacklog, listener: listener))
            let connection = ServerConnection(
                id: id, fd: fd, peer: peer, output: output, now: now, listener: listener,
                terminator: conversation.requestTerminator)
            connections[id] = connection
            statistics.accepted += 1
            conversation.opened(connection, loop: self, now: now)
        }
    }

    private func refuseBusy(_ fd: Int32, _ reason: String, listener: Int) {
        statistics.refusedBusy += 1
        let line = conversation.busyLine(reason, listener: listener)
        // A new socket's buffer is empty: the line fits, and the peer can read it after the close.
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        Glibc.close(fd)
    }

    // MARK: - Reading and writing

    private func handle(_ connection: ServerConnection, revents: Int32, now: Double) {
        if revents & Int32(POLLOUT) != 0 { connection.writable = true }
        if revents & Int32(POLLIN) != 0 {
            read(connection, now: now)
            return
        }
        if revents & Int32(POLLHUP | POLLERR | POLLNVAL) != 0 { peerWent(connection) }
    }

    /// One read; requests are kept, a watcher's bytes are ignored.
    private func read(_ connection: ServerConnection, now: Double) {
        var requests = false
        if case .requests = connection.mode { requests = true }
        // Bytes read are not progress by themselves: only a request line is (see `dispatch`).
        let n = readOnce(connection, keeping: requests)
        if n > 0 { return }
        if n == 0 {
            connection.eof = true
            return
        }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return }
        connection.eof = true
        peerWent(connection)
    }

    /// One `read(2)` of what the peer sent, kept as request bytes when
    /// `keeping`; returns what the call returned (`errno` is set when -1).
    private func readOnce(_ connection: ServerConnection, keeping: Bool) -> Int {
        let count = scratch.count
        let n = scratch.withUnsafeMutableBytes { Glibc.read(connection.fd, $0.baseAddress, count) }
        if n > 0 && keeping {
            scratch.withUnsafeBytes { connection.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return n
    }

    /// The peer hung up or the socket failed: a watcher is closed; for
    /// requests, what it sent before is still carried out (replies dropped).
    private func peerWent(_ connection: ServerConnection) {
        connection.peerGone = true
        connection.output.close()
        switch connection.mode {
        case .requests: break
        case .watching, .closing: close(connection)
        }
    }

    private func flush(_ connection: ServerConnection, now: Double) {
        guard connection.writable, !connection.peerGone, connection.output.pendingBytes > 0 else { return }
        let (written, result) = connection.output.flush(to: connection.fd)
        if written > 0 { connection.lastActivity = now }
        switch result {
        case .done: break
        case .wouldBlock: connection.writable = false
        case .failed: peerWent(connection)
        }
    }

    // MARK: - Requests

    private func service(_ connection: ServerConnection, now: Double) {
        guard connections[connection.id] != nil else { return }
        flush(connection, now: now)
        guard connections[connection.id] != nil else { return }
        if case .requests = connection.mode {
            processLines(connection, now: now)
            flush(connection, now: now)
            guard connections[connection.id] != nil else { return }
        }
        switch connection.mode {
        case .requests:
            if connection.inFlight { return }
            if connection.streaming && connection.output.isCutOff {
                statistics.cutOff += 1
                connection.mode = .closing(deadline: now + limits.closeGrace)
                conversation.cutOff(connection, loop: self)
                flush(connection, now: now)
                closeIfDone(connection, now: now)
                return
            }
            if waitsForTheRestOfALine(connection) {
                let since = connection.partialLineSince ?? now
                connection.partialLineSince = since
                if now - since >= limits.lineTimeout {
                    statistics.slowLineClosed += 1
                    close(connection)
                    return
                }
            } else {
                connection.partialLineSince = nil
            }
            if connection.eof && connection.bufferedInput == 0
                && (connection.peerGone || connection.output.pendingBytes == 0)
            {
                close(connection)
            } else if !connection.streaming && now - connection.lastActivity >= limits.idleTimeout {
                statistics.idleClosed += 1
                close(connection)
            }
        case .watching:
            if connection.output.isCutOff {
                statistics.cutOff += 1
                connection.mode = .closing(deadline: now + limits.closeGrace)
                conversation.cutOff(connection, loop: self)
                flush(connection, now: now)
                closeIfDone(connection, now: now)
            }
        case .closing:
            closeIfDone(connection, now: now)
        }
    }

    /// Whether the server is ready for more of this peer's request and holds
    /// part of a line from it: the peer, not the server, is what the line waits for.
    private func waitsForTheRestOfALine(_ connection: ServerConnection) -> Bool {
        guard !connection.eof, !connection.backlogged, connection.output.pendingBytes <= limits.replyBacklog else {
            return false
        }
        // The rest of a too-long line being dropped is not a request: the idle timeout bounds it.
        return connection.bufferedInput > 0 && !connection.discarding
    }

    private func closeIfDone(_ connection: ServerConnection, now: Double) {
        guard connections[connection.id] != nil, case .closing(let deadline) = connection.mode else { return }
        if connection.peerGone || connection.output.pendingBytes == 0 || now >= deadline { close(connection) }
    }

    /// Lines one connection may have answered in one round, so a peer that
    /// pipelines thousands of bad lines does not make the others wait.
    static var linesPerRound: Int { 256 }

    /// Takes request lines one at a time while nothing is in flight and the
    /// peer is taking its replies, at most `linesPerRound` of them.
    private func processLines(_ connection: ServerConnection, now: Double) {
        var budget = Self.linesPerRound
        connection.backlogged = false
        while case .requests = connection.mode, !connection.inFlight,
            connection.output.pendingBytes <= limits.replyBacklog
        {
            if budget == 0 {
                // Come back next round (poll does not wait), without reading more meanwhile.
                connection.backlogged = true
                return
            }
            if let line = connection.nextLine(maximumLength: conversation.maximumLineLength) {
                budget -= 1
                statistics.requests += 1
                connection.lastActivity = now
                connection.partialLineSince = nil
                conversation.dispatch(line, on: connection, loop: self, now: now)
                continue
            }
            // A peer that hung up is not polled: read what it left in the socket directly.
            if connection.peerGone && !connection.eof {
                let n = readOnce(connection, keeping: true)
                if n == 0 || (n < 0 && errno != EINTR) { connection.eof = true }
                continue
            }
            return
        }
    }

    /// Runs a handler call as a task of high priority (a person is waiting at
    /// the other end), on the server's executor if it was given one.
    func spawn(_ body: sending @escaping @isolated(any) () async -> Void) {
        if let executor {
            Task(executorPreference: executor, priority: .high, operation: body)
        } else {
            Task(priority: .high, operation: body)
        }
    }

    private func complete(_ id: UInt64, _ completion: Conversation.Completion, now: Double) {
        guard let connection = connections[id] else {
            conversation.complete(completion, on: nil, loop: self)
            return
        }
        connection.inFlight = false
        connection.lastActivity = now
        conversation.complete(completion, on: connection, loop: self)
        if connection.isWatching && connection.peerGone { close(connection) }
    }

    /// Counts a request refused as malformed or too long (the conversation answered it).
    func countMalformed() { statistics.malformed += 1 }

    /// Counts a request the conversation refused to carry out.
    func countRefusedRequest() { statistics.refusedRequests += 1 }

    /// Every connection open now, for the conversation (on the loop thread only).
    var openConnections: Dictionary<UInt64, ServerConnection>.Values { connections.values }

    /// Closes a connection now; the conversation hears of it.
    func close(_ connection: ServerConnection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        let uid = connection.peer.uid
        if let open = connectionsOfUser[uid], open > 1 {
            connectionsOfUser[uid] = open - 1
        } else {
            connectionsOfUser[uid] = nil
        }
        connection.output.close()
        Glibc.close(connection.fd)
        conversation.closed(connection, loop: self)
    }

    private func publish() {
        var snapshot = statistics
        snapshot.connections = connections.count
        var watchers = 0
        var buffered = 0
        for connection in connections.values {
            if connection.isWatching || connection.streaming { watchers += 1 }
            buffered += connection.bufferedInput + connection.output.pendingBytes
        }
        snapshot.watchers = watchers
        snapshot.bufferedBytes = buffered
        published.withLock { $0 = snapshot }
    }

    /// Watchers get a last line saying the daemon is stopping; every connection is closed.
    private func shutDown() {
        for connection in Array(connections.values) {
            if connection.isWatching || connection.streaming, !connection.peerGone,
                let line = conversation.stoppingLine(for: connection)
            {
                connection.output.replaceUnsent(with: line)
                _ = connection.output.flush(to: connection.fd)
            }
            close(connection)
        }
        publish()
    }
}
