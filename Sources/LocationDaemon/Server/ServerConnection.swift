#if canImport(Glibc)
import Glibc
#endif

/// One accepted connection as a server's loop sees it. Only the loop thread
/// touches it; `output` is the part other threads write to.
final class ServerConnection {
    /// What the connection is doing.
    enum Mode {
        /// Requests and replies, one request in flight at most.
        case requests
        /// A one-way stream to the peer (a control watcher): what the peer
        /// sends is ignored, and the connection is never idle. What the
        /// stream is stays with the conversation.
        case watching
        /// A last line is going out; closed when it has, or at the deadline (monotonic seconds).
        case closing(deadline: Double)
    }

    /// One request line, or the news that one was too long.
    enum Line {
        /// The bytes of a line, without its `\n`.
        case request([UInt8])
        /// A line longer than the limit; its bytes were dropped.
        case tooLong
    }

    /// Unique within the server's run.
    let id: UInt64
    /// The socket.
    let fd: Int32
    /// Who connected.
    let peer: PeerCredentials
    /// Replies and event lines waiting to go out.
    let output: ConnectionOutput
    /// Requests, watching, or closing.
    var mode = Mode.requests
    /// A request was handed to the handler and its reply is not queued yet.
    var inFlight = false
    /// The peer will send nothing more (it closed or shut down its sending side).
    var eof = false
    /// The peer is gone entirely (hang-up, or writing failed): nothing more is written.
    var peerGone = false
    /// The socket took everything last time (or said it is writable again).
    var writable = true
    /// The last round stopped taking lines at its budget: complete lines wait in `inbound`.
    var backlogged = false
    /// When the connection last made progress (monotonic seconds): a request
    /// line taken, a reply queued or written. Bytes that are no request (a
    /// blank line, part of a line) are not progress.
    var lastActivity: Double
    /// Which of the server's listeners accepted it (their order at the loop's creation).
    let listener: Int
    /// The connection streams to its peer while still taking requests (a
    /// gpsd-protocol watcher, an NMEA reader): never closed as idle, and
    /// closed when its output is cut off for falling behind.
    var streaming = false

    /// A byte that ends a request besides `\n`, if the protocol has one.
    private let terminator: UInt8?
    /// Since when part of a request line has waited for the rest (monotonic seconds).
    var partialLineSince: Double?

    private var inbound: [UInt8] = []
    private var head = 0
    /// Up to here (an index into `inbound`) there is no newline.
    private var scanned = 0
    /// After a too-long line: drop bytes up to and including the next newline.
    private(set) var discarding = false

    init(
        id: UInt64, fd: Int32, peer: PeerCredentials, output: ConnectionOutput, now: Double, listener: Int = 0,
        terminator: UInt8? = nil
    ) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.output = output
        self.lastActivity = now
        self.listener = listener
        self.terminator = terminator
    }

    /// Request bytes read and not yet taken as lines.
    var bufferedInput: Int { inbound.count - head }

    /// Whether the connection has become a one-way stream.
    var isWatching: Bool {
        if case .watching = mode { return true }
        return false
    }

    /// Keeps bytes read from the peer (dropping the rest of a too-long line).
    func append(_ bytes: UnsafeRawBufferPointer) {
        var slice = bytes[...]
        if discarding {
            guard let newline = slice.firstIndex(of: 0x0A) else { return }
            discarding = false
            slice = slice[(newline + 1)...]
        }
        inbound.append(contentsOf: slice)
    }

    /// Forgets every byte read and not taken.
    func dropInput() {
        inbound.removeAll(keepingCapacity: false)
        head = 0
        scanned = 0
    }

    /// The next complete request line; at end of input an unterminated last
    /// line counts too. Blank lines are skipped. A line longer than
    /// `maximumLength` bytes (a `\r` before the `\n` not counted) is
    /// `.tooLong`, reported as soon as that is certain; the rest of it is
    /// dropped as it arrives.
    func nextLine(maximumLength: Int) -> Line? {
        while true {
            let from = max(head, scanned)
            let newline = end(from: from)
            if let newline {
                let length = newline - head
                let line = length > maximumLength + 1 ? nil : Array(inbound[head..<newline])
                head = newline + 1
                scanned = head
                compact()
                guard let line else { return .tooLong }
                if Self.isBlank(line) { continue }
                return .request(line)
            }
            scanned = inbound.count
            if bufferedInput > maximumLength + 1 {
                dropInput()
                discarding = !eof
                return .tooLong
            }
            if eof && bufferedInput > 0 {
                let line = Array(inbound[head...])
                dropInput()
                return Self.isBlank(line) ? nil : .request(line)
            }
            return nil
        }
    }

    /// Where the next request ends at or after `from`: a `\n`, or the terminator.
    private func end(from: Int) -> Int? {
        inbound.withUnsafeBytes { raw -> Int? in
            guard from < raw.count, let base = raw.baseAddress else { return nil }
            guard let terminator else {
                guard let hit = memchr(base + from, 0x0A, raw.count - from) else { return nil }
                return base.distance(to: UnsafeRawPointer(hit))
            }
            return raw[from...].firstIndex { $0 == 0x0A || $0 == terminator }
        }
    }

    private func compact() {
        if head == inbound.count {
            inbound.removeAll(keepingCapacity: inbound.capacity <= 65_536)
            head = 0
            scanned = 0
        } else if head >= 16_384 && head * 2 >= inbound.count {
            inbound.removeSubrange(0..<head)
            scanned -= head
            head = 0
        }
    }

    private static func isBlank(_ line: [UInt8]) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
