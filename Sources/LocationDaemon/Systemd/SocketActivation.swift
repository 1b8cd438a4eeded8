#if canImport(Glibc)
import Glibc
#endif
import LocationSystem

/// Sockets systemd passes to the daemon (sd_listen_fds(3)): when
/// `locationd.socket` listens, systemd starts the service with the socket as
/// descriptor 3, `LISTEN_FDS=1` and `LISTEN_PID` set to the daemon's pid.
/// The daemon then serves that socket instead of binding its own, so a
/// connection made before (or while) it starts waits in the backlog and is
/// answered, and the socket file stays systemd's (it is never unlinked).
public struct SocketActivation: Sendable, Hashable {
    /// The environment variables systemd sets.
    public static let environmentNames = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]
    /// `SD_LISTEN_FDS_START`: the first passed descriptor.
    public static let firstDescriptor: Int32 = 3

    /// The passed descriptors, `3 ..< 3 + LISTEN_FDS`; empty when nothing was passed to this process.
    public let descriptors: [Int32]

    /// What `environment` says was passed to process `processID`. Variables
    /// meant for another process (`LISTEN_PID` not this one: inherited from
    /// a parent) pass nothing.
    public init(environment: [String: String], processID: Int32 = getpid()) throws(SocketActivationError) {
        guard let pidText = environment["LISTEN_PID"], let countText = environment["LISTEN_FDS"] else {
            descriptors = []
            return
        }
        guard let pid = Int32(pidText) else { throw .badVariable("LISTEN_PID", pidText) }
        guard pid == processID else {
            descriptors = []
            return
        }
        guard let count = Int32(countText), count >= 0, count <= 1024 else { throw .badVariable("LISTEN_FDS", countText) }
        descriptors = (0..<count).map { Self.firstDescriptor + $0 }
    }

    /// The variables of `environmentNames` this process has.
    public static func processEnvironment() -> [String: String] {
        ProcessEnvironment.values(of: environmentNames)
    }

    /// Removes the variables from this process's environment, so nothing it
    /// starts takes the sockets for its own (sd_listen_fds's `unset_environment`).
    public static func unsetProcessEnvironment() {
        for name in environmentNames { unsetenv(name) }
    }

    /// The control socket among the passed descriptors: `nil` when none was
    /// passed. It must be the only one and a listening Unix stream socket
    /// bound to a path; it is made non-blocking and close-on-exec.
    public func controlSocket() throws(SocketActivationError) -> PassedSocket? {
        guard let fd = descriptors.first else { return nil }
        guard descriptors.count == 1 else { throw .tooMany(descriptors.count) }
        return try PassedSocket(checking: fd)
    }
}

/// A listening Unix stream socket systemd passed, and the path it is bound to.
public struct PassedSocket: Sendable, Hashable {
    /// The descriptor.
    public let descriptor: Int32
    /// The path it is bound to.
    public let path: String

    /// Checks that `fd` is a listening `AF_UNIX` stream socket bound to a
    /// path, and makes it non-blocking and close-on-exec.
    public init(checking fd: Int32) throws(SocketActivationError) {
        var type: Int32 = 0
        var listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else {
            throw .notASocket(fd, SystemError("getsockopt(SO_TYPE)", errno: errno))
        }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 else {
            throw .notASocket(fd, SystemError("getsockopt(SO_ACCEPTCONN)", errno: errno))
        }
        var address = sockaddr_un()
        length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw .notASocket(fd, SystemError("getsockname", errno: errno)) }
        let pathLength = Int(length) - MemoryLayout<sa_family_t>.size
        let path = withUnsafeBytes(of: address.sun_path) { raw in
            String(decoding: raw.prefix(max(0, min(pathLength, raw.count))).prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        guard Int32(address.sun_family) == AF_UNIX, type == Int32(SOCK_STREAM.rawValue), listening != 0,
            path.hasPrefix("/")
        else {
            throw .notAUnixListener(fd)
        }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0, fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else {
            throw .notASocket(fd, SystemError("fcntl", errno: errno))
        }
        descriptor = fd
        self.path = path
    }
}

/// Why the sockets systemd passed cannot be used.
public enum SocketActivationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `LISTEN_PID` or `LISTEN_FDS` is not a number.
    case badVariable(String, String)
    /// More than one socket was passed.
    case tooMany(Int)
    /// The descriptor is not a socket (or could not be examined).
    case notASocket(Int32, SystemError)
    /// The descriptor is a socket, but not a listening Unix stream socket bound to a path.
    case notAUnixListener(Int32)

    /// One sentence with what to do.
    public var description: String {
        switch self {
        case .badVariable(let name, let value):
            "systemd's \(name)=\(value) is not a number: start locationd from locationd.service, or unset \(name)"
        case .tooMany(let count):
            "systemd passed \(count) sockets; locationd serves one control socket: give locationd.socket a single ListenStream="
        case .notASocket(let fd, let error):
            "descriptor \(fd) passed by systemd is not a socket (\(error)): check locationd.socket"
        case .notAUnixListener(let fd):
            "descriptor \(fd) passed by systemd is not a listening Unix stream socket on a path: "
                + "locationd.socket needs ListenStream=/run/locationd/control.sock"
        }
    }
}
