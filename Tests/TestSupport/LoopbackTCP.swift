#if canImport(Glibc)
import Glibc
#endif

/// TCP on 127.0.0.1 for the tests: free ports, and connections that never
/// block a thread while they are made.
public enum LoopbackTCP {
    /// Established TCP connections to `port` on this machine (client ends, IPv4 and IPv6, from
    /// `/proc/net/tcp` and `tcp6`), those of process `pid` alone when it is given: how many
    /// connections a gpsd client holds to its gpsd.
    public static func connections(toPort port: Int, of pid: pid_t? = nil) -> Int {
        let inodes = pid.map(socketInodes(of:))
        var count = 0
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = FileIO.text(table) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                guard fields.count > 9, fields[3] == "01",
                    let remote = fields[2].split(separator: ":").last, Int(remote, radix: 16) == port
                else { continue }
                if let inodes, !inodes.contains(String(fields[9])) { continue }
                count += 1
            }
        }
        return count
    }

    /// The inodes of process `pid`'s sockets (its `/proc/PID/fd` links `socket:[N]`).
    private static func socketInodes(of pid: pid_t) -> Set<String> {
        let directory = "/proc/\(pid)/fd"
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var inodes: Set<String> = []
        var target = [CChar](repeating: 0, count: 256)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let n = readlink("\(directory)/\(name)", &target, target.count - 1)
            guard n > 0 else { continue }
            let link = String(decoding: target[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("socket:["), link.hasSuffix("]") { inodes.insert(String(link.dropFirst(8).dropLast())) }
        }
        return inodes
    }

    /// A port on 127.0.0.1 that nothing is bound to right now (the kernel's pick).
    public static func freePort() throws(SupportError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket") }
        defer { close(fd) }
        var address = loopback(port: 0)
        guard bind(fd, &address) == 0 else { throw .system("bind 127.0.0.1:0") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: Glibc.sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw .system("getsockname") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a server could bind `port` now (as gpsd does, with SO_REUSEADDR):
    /// false while a process that is going away still listens on it.
    public static func isFree(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: port)
        return bind(fd, &address) == 0
    }

    /// A connected, non-blocking, close-on-exec socket to 127.0.0.1:`port`, or
    /// `nil` if nothing accepts within `timeout` seconds (refused at once when
    /// nothing listens). The caller closes it.
    public static func connect(port: Int, timeout: Double = 10) async -> Int32? {
        let fd = socket(
            AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = loopback(port: port)
        let started = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: Glibc.sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if started == 0 { return fd }
        guard errno == EINPROGRESS || errno == EINTR else {
            close(fd)
            return nil
        }
        let writable = await waitUntil(timeout: timeout, every: 0.005) {
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            return poll(&entry, 1, 0) > 0
        }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard writable, getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    public static func accepts(port: Int) async -> Bool {
        guard let fd = await connect(port: port, timeout: 5) else { return false }
        close(fd)
        return true
    }

    /// 127.0.0.1:`port`.
    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    private static func bind(_ fd: Int32, _ address: inout sockaddr_in) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: Glibc.sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}
