#if canImport(Glibc)
import Glibc
#endif
import LocationProtocol
import LocationValues
import LocationSystem

/// A connection to the daemon's control socket, as `locationctl` (and the
/// tests) use it: send request lines, read reply and event lines, every
/// wait bounded by a deadline unless the caller wants to wait for ever.
///
/// Not thread-safe: one owner.
public final class ControlClient {
    /// The longest line accepted from the daemon (a `status` of many clients is a few KiB).
    public static let maximumLineLength = 16 << 20

    /// The socket's path.
    public let path: String
    /// The connected socket (non-blocking).
    public let fileDescriptor: Int32

    private var inbound: [UInt8] = []
    private var head = 0
    private var sawEOF = false

    /// Connects to the socket at `path`, waiting at most `timeout` seconds
    /// for the daemon to accept.
    public init(path: String, timeout: Double = 10) throws(ControlClientError) {
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
        self.path = path
        let fd: Int32
        do {
            fd = try UnixSocketAddress.makeSocket(nonBlocking: false)
        } catch {
            throw .io(path: path, error)
        }
        // A blocking connect waits only while the listener's backlog is full; bound that wait.
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let code = address.connect(fd)
        guard code == 0 else {
            Glibc.close(fd)
            throw .connect(path: path, errno: code)
        }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        fileDescriptor = fd
    }

    deinit {
        Glibc.close(fileDescriptor)
    }

    // MARK: - Writing

    /// Sends one request line.
    public func send(_ request: ControlRequest, timeout: Double? = 10) throws(ControlClientError) {
        try send(raw: Array(request.line().utf8), timeout: timeout)
    }

    /// Sends bytes as they are (tests send malformed lines this way).
    public func send(raw bytes: [UInt8], timeout: Double? = 10) throws(ControlClientError) {
        let deadline = timeout.map { Self.now() + $0 }
        var offset = 0
        while offset < bytes.count {
            let n = try sendSome(bytes[offset...])
            if n > 0 {
                offset += n
            } else {
                try wait(for: Int16(POLLOUT), deadline: deadline, timeout: timeout)
            }
        }
    }

    /// Writes what the socket takes now of `bytes`, without waiting; returns how many went.
    public func sendSome(_ bytes: ArraySlice<UInt8>) throws(ControlClientError) -> Int {
        while true {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.send(fileDescriptor, base, raw.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n >= 0 { return n }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return 0 }
            if code == EPIPE || code == ECONNRESET { throw .closed(path: path) }
            throw .io(path: path, SystemError("write to \(path)", errno: code))
        }
    }

    /// Tells the daemon nothing more will be sent (it still answers what it got).
    public func finishSending() {
        shutdown(fileDescriptor, Int32(SHUT_WR))
    }

    // MARK: - Reading

    /// What `pollLine` found.
    public enum Poll: Sendable, Hashable {
        /// A line, without its `\n`.
        case line([UInt8])
        /// The daemon closed the connection and every line was taken.
        case end
        /// Nothing complete yet.
        case nothing
    }

    /// The next line if one has arrived, without waiting.
    public func pollLine() throws(ControlClientError) -> Poll {
        while true {
            if let line = takeLine() { return .line(line) }
            if sawEOF {
                // A last line without its newline still counts.
                guard head < inbound.count else { return .end }
                let line = Array(inbound[head...])
                inbound.removeAll()
                head = 0
                return .line(line)
            }
            var ready = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0 else { return .nothing }
            try readOnce()
        }
    }

    /// The next line from the daemon, without its `\n`; `nil` when the
    /// daemon closed the connection. `timeout` `nil` waits for ever.
    public func readLine(timeout: Double?) throws(ControlClientError) -> [UInt8]? {
        let deadline = timeout.map { Self.now() + $0 }
        while true {
            switch try pollLine() {
            case .line(let line): return line
            case .end: return nil
            case .nothing: try wait(for: Int16(POLLIN), deadline: deadline, timeout: timeout)
            }
        }
    }

    /// The lines that have already arrived, without waiting.
    public func availableLines() throws(ControlClientError) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        while case .line(let line) = try pollLine() { lines.append(line) }
        return lines
    }

    /// Sends `operation` and reads its reply: the line and the decoded reply.
    public func request(
        _ operation: ControlRequest.Operation, id: JSONValue? = nil, timeout: Double? = 10
    ) throws(ControlClientError) -> (line: [UInt8], reply: ControlReply) {
        do {
            try send(ControlRequest(id: id, operation), timeout: timeout)
        } catch .closed {
            // A daemon that refused the connection (`busy`) said so before it closed: that line may be waiting.
            guard let line = try? readLine(timeout: 1), case .reply(let reply)? = try? ServerMessage.decode(line) else {
                throw .closed(path: path)
            }
            return (line, reply)
        }
        guard let line = try readLine(timeout: timeout) else { throw .closed(path: path) }
        do throws(ControlDecodeError) {
            guard case .reply(let reply) = try ServerMessage.decode(line) else {
                throw ControlDecodeError("an event where the reply to \(operation.name) was expected")
            }
            return (line, reply)
        } catch {
            throw .unreadable(error)
        }
    }

    // MARK: - Internals

    private func takeLine() -> [UInt8]? {
        guard head < inbound.count,
            let newline = inbound[head...].firstIndex(of: UInt8(ascii: "\n"))
        else { return nil }
        let line = Array(inbound[head..<newline])
        head = newline + 1
        if head == inbound.count {
            inbound.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 65_536 {
            inbound.removeSubrange(0..<head)
            head = 0
        }
        return line
    }

    private func readOnce() throws(ControlClientError) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
        if n > 0 {
            inbound.append(contentsOf: chunk[0..<n])
            if inbound.count - head > Self.maximumLineLength && takeLinePeek() == nil {
                throw .lineTooLong(path: path, limit: Self.maximumLineLength)
            }
            return
        }
        if n == 0 {
            sawEOF = true
            return
        }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return }
        if code == ECONNRESET {
            sawEOF = true
            return
        }
        throw .io(path: path, SystemError("read from \(path)", errno: code))
    }

    private func takeLinePeek() -> Int? {
        inbound[head...].firstIndex(of: UInt8(ascii: "\n"))
    }

    private func wait(for events: Int16, deadline: Double?, timeout: Double?) throws(ControlClientError) {
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let left = deadline - Self.now()
                if left <= 0 { throw .timedOut(path: path, seconds: timeout ?? 0) }
                milliseconds = Int32(min((left * 1000).rounded(.up), 3_600_000))
            }
            var ready = pollfd(fd: fileDescriptor, events: events, revents: 0)
            let n = poll(&ready, 1, milliseconds)
            if n > 0 { return }
            if n < 0 && errno != EINTR {
                throw .io(path: path, SystemError("poll \(path)", errno: errno))
            }
        }
    }

    /// The clock its deadlines are measured on: monotonic seconds (`SystemClock.monotonic()`).
    public static func now() -> Double {
        SystemClock.monotonic()
    }
}
