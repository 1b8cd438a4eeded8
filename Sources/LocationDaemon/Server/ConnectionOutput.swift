#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// What is waiting to be written to one connection: replies, and for a
/// streaming connection (a control watcher, a program) its lines. Handler
/// tasks add to it from any thread (a server may hand it out as a
/// stream's sink); the server's loop writes it out with non-blocking
/// writes. Adding never blocks and never waits for the peer.
///
/// A watcher's lines are capped at `watcherBacklog` bytes: the line that
/// would go over is refused (`send` returns `false`), the lines not yet begun
/// are dropped, and a final line the conversation chose (`tooSlowLine`) takes
/// their place; the server then closes the connection.
final class ConnectionOutput: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var head = 0
        /// Whether the next byte to write starts a line (nothing of it has gone out).
        var atLineStart = true
        /// The peer is gone or the connection closed: everything is dropped.
        var dead = false
        /// The watcher fell too far behind; only the final line remains to go.
        var cutOff = false

        var pending: Int { buffer.count - head }
    }

    /// The most bytes of event lines queued for a watcher before it is cut off.
    let watcherBacklog: Int
    private let state = Mutex(State())
    private let waker: Wakeup
    private let cutOffLine: [UInt8]

    /// `tooSlowLine` is the last line a streaming connection gets when it is cut off (none: empty).
    init(watcherBacklog: Int, waker: Wakeup, tooSlowLine: [UInt8]) {
        self.watcherBacklog = watcherBacklog
        self.waker = waker
        self.cutOffLine = tooSlowLine
    }

    // MARK: Streaming

    /// Queues one event line; `false` when the watcher is cut off or closed.
    func send(_ line: [UInt8]) -> Bool {
        enum Outcome { case queued(wake: Bool), refused, cutOff }
        let outcome = state.withLock { state -> Outcome in
            guard !state.dead, !state.cutOff else { return .refused }
            if state.pending + line.count > watcherBacklog {
                state.cutOff = true
                Self.dropUnbegunLines(&state)
                state.buffer.append(contentsOf: cutOffLine)
                return .cutOff
            }
            let wasEmpty = state.pending == 0
            state.buffer.append(contentsOf: line)
            return .queued(wake: wasEmpty)
        }
        switch outcome {
        case .queued(let wake):
            if wake { waker.signal() }
            return true
        case .refused:
            return false
        case .cutOff:
            waker.signal()
            return false
        }
    }

    // MARK: The server's side

    /// Queues a reply line (not capped: at most one reply is outstanding per
    /// connection, and the server reads no further request while the backlog
    /// is over its limit). Dropped when the connection is dead.
    func enqueue(_ bytes: [UInt8]) {
        let wake = state.withLock { state -> Bool in
            guard !state.dead, !state.cutOff else { return false }
            state.buffer.append(contentsOf: bytes)
            return true
        }
        if wake { waker.signal() }
    }

    /// Queues a last line in place of whatever has not begun to go out.
    func replaceUnsent(with bytes: [UInt8]) {
        state.withLock { state in
            guard !state.dead else { return }
            Self.dropUnbegunLines(&state)
            state.buffer.append(contentsOf: bytes)
            state.cutOff = true
        }
    }

    /// Bytes waiting to be written.
    var pendingBytes: Int { state.withLock { $0.pending } }

    /// Whether the watcher was cut off for falling behind (or a last line was queued).
    var isCutOff: Bool { state.withLock { $0.cutOff } }

    /// What one flush achieved.
    enum FlushResult: Equatable {
        /// Everything queued is written.
        case done
        /// The socket is full; wait for it to become writable.
        case wouldBlock
        /// Writing failed (the peer is gone): the errno.
        case failed(Int32)
    }

    /// Writes as much as the socket takes without blocking; returns how many
    /// bytes went and what stopped it.
    func flush(to fd: Int32) -> (written: Int, result: FlushResult) {
        state.withLock { state in
            var written = 0
            while state.pending > 0 {
                let count = state.pending
                let start = state.head
                let n = state.buffer.withUnsafeBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return 0 }
                    return Glibc.send(fd, base + start, count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if n > 0 {
                    written += n
                    state.atLineStart = state.buffer[state.head + n - 1] == UInt8(ascii: "\n")
                    state.head += n
                    continue
                }
                let code = errno
                if n < 0 && code == EINTR { continue }
                Self.compact(&state)
                if n < 0 && (code == EAGAIN || code == EWOULDBLOCK) { return (written, .wouldBlock) }
                return (written, .failed(n == 0 ? EPIPE : code))
            }
            state.buffer.removeAll(keepingCapacity: state.buffer.capacity <= 65_536)
            state.head = 0
            state.atLineStart = true
            return (written, .done)
        }
    }

    /// Drops everything and refuses more (connection closed or peer gone).
    func close() {
        state.withLock { state in
            state.dead = true
            state.buffer = []
            state.head = 0
        }
    }

    /// Keeps only the rest of a line already partly written, so the peer
    /// never sees a torn line followed by another.
    private static func dropUnbegunLines(_ state: inout State) {
        if state.atLineStart {
            state.buffer.removeSubrange(state.head...)
        } else if let end = state.buffer[state.head...].firstIndex(of: UInt8(ascii: "\n")) {
            state.buffer.removeSubrange((end + 1)...)
        }
    }

    private static func compact(_ state: inout State) {
        guard state.head > 0 else { return }
        if state.head == state.buffer.count {
            state.buffer.removeAll(keepingCapacity: true)
        } else if state.head >= 65_536 || state.head * 2 >= state.buffer.count {
            state.buffer.removeSubrange(0..<state.head)
        } else {
            return
        }
        state.head = 0
    }
}
