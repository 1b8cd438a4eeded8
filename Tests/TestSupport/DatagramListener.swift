#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing in for systemd's `$NOTIFY_SOCKET`: a path, or
/// `@name` in the abstract namespace. Receiving never blocks a thread: it
/// polls the non-blocking socket between short sleeps.
public final class DatagramListener: Sendable {
    /// The `$NOTIFY_SOCKET` value.
    public let address: String
    private let fd: Int32

    /// Binds `address` (`/path` or `@name`).
    public init(address: String) throws(SupportError) {
        var name = Array(address.utf8)
        let abstract = name.first == UInt8(ascii: "@")
        if abstract { name[0] = 0 }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        guard name.count < MemoryLayout.size(ofValue: socketAddress.sun_path) else {
            throw SupportError("\(address) is too long for a socket address")
        }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: name) }
        let fd = socket(
            AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket") }
        // sun_family, the name, and the path's terminating NUL (an abstract name has none).
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let error = SupportError.system("bind \(address)")
            close(fd)
            throw error
        }
        self.address = address
        self.fd = fd
    }

    deinit {
        close(fd)
        if !address.hasPrefix("@") { unlink(address) }
    }

    /// The next datagram's text if one is waiting, else `nil` at once.
    public func receiveNow() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 && errno == EINTR { continue }
            return n >= 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
        }
    }

    /// Every datagram waiting now, in order (none: empty, at once).
    public func receiveAllNow() -> [String] {
        var all: [String] = []
        while let message = receiveNow() { all.append(message) }
        return all
    }

    /// The next datagram's text, or `nil` if none comes within `timeout` seconds.
    public func receive(timeout: Double) async -> String? {
        await eventualValue(timeout: timeout, every: 0.005) { receiveNow() }
    }
}
