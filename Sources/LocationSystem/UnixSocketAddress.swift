#if canImport(Glibc)
import Glibc
#endif

/// A filesystem path as a `sockaddr_un`, for binding and connecting Unix
/// stream sockets (the control socket's server and client).
public struct UnixSocketAddress: Sendable {
    /// The socket's path.
    public let path: String

    /// The longest path `sockaddr_un` holds, in bytes (108 less the terminating NUL).
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The address of `path`; `nil` when it is empty or longer than `maximumPathLength` bytes.
    public init?(path: String) {
        let count = path.utf8.count
        guard count > 0, count <= Self.maximumPathLength, !path.utf8.contains(0) else { return nil }
        self.path = path
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// A new Unix stream socket, close-on-exec, optionally non-blocking.
    public static func makeSocket(nonBlocking: Bool) throws(SystemError) -> Int32 {
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        return try retryingEINTR("socket(AF_UNIX)") { socket(AF_UNIX, type, 0) }
    }

    /// What a connection attempt finds at an address.
    public enum Occupant: Sendable, Hashable {
        /// A server: it accepted, or its listen backlog is full.
        case server
        /// A socket file nobody listens on (`ECONNREFUSED`): left by a server that is gone.
        case nobody
        /// The attempt failed otherwise (no such file, permission…): the `errno`.
        case unknown(Int32)
    }

    /// Connects a fresh non-blocking socket to this address, closes it, and
    /// says what answered. Throws only when no socket could be made.
    public func probe() throws(SystemError) -> Occupant {
        let fd = try Self.makeSocket(nonBlocking: true)
        defer { close(fd) }
        switch connect(fd) {
        case 0, EAGAIN, EINPROGRESS: return .server
        case ECONNREFUSED: return .nobody
        case let code: return .unknown(code)
        }
    }

    /// Connects `fd` to this address; returns 0 or the `errno` of the failure.
    /// `EINTR` is retried; on a non-blocking socket `EAGAIN` means the
    /// listener's backlog is full (someone is listening).
    public func connect(_ fd: Int32) -> Int32 {
        var interrupted = false
        while true {
            let result = withSockaddr { Glibc.connect(fd, $0, $1) }
            if result == 0 { return 0 }
            let code = errno
            if code == EINTR {
                interrupted = true
                continue
            }
            // An interrupted connect carries on in the kernel; retrying then reports it done.
            if interrupted && code == EISCONN { return 0 }
            return code
        }
    }
}
