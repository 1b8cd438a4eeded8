#if canImport(Glibc)
import Glibc
#endif
import LocationSystem

/// Listening TCP sockets on the loopback addresses only (127.0.0.1 and
/// ::1) for a client's `gpsd_port`, as gpsd listens by default: programs on
/// this machine reach it, the network does not.
enum LoopbackListener {
    /// Listens on 127.0.0.1:`port` and, where the machine has IPv6, on
    /// [::1]:`port`; the descriptors (non-blocking, close-on-exec) and what
    /// a person should know (no IPv6). Throws when 127.0.0.1 cannot be had.
    static func open(port: Int) throws(SystemError) -> (descriptors: [Int32], warnings: [String]) {
        let v4 = try listen(family: AF_INET, port: port)
        do {
            return ([v4, try listen(family: AF_INET6, port: port)], [])
        } catch {
            if error.errno == EADDRNOTAVAIL || error.errno == EAFNOSUPPORT {
                return ([v4], ["gpsd_port \(port): no IPv6 loopback here (\(error)); serving 127.0.0.1 only"])
            }
            Glibc.close(v4)
            throw error
        }
    }

    private static func listen(family: Int32, port: Int) throws(SystemError) -> Int32 {
        let name = family == AF_INET ? "127.0.0.1:\(port)" : "[::1]:\(port)"
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try retryingEINTR("socket for \(name)") { socket(family, type, 0) }
        do {
            var on: Int32 = 1
            try retryingEINTR("SO_REUSEADDR on \(name)") {
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            if family == AF_INET6 {
                try retryingEINTR("IPV6_V6ONLY on \(name)") {
                    setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
                }
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = in_port_t(UInt16(port).bigEndian)
                address.sin6_addr = in6addr_loopback
                try retryingEINTR("bind \(name)") {
                    withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                        }
                    }
                }
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
                try retryingEINTR("bind \(name)") {
                    withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                        }
                    }
                }
            }
            try retryingEINTR("listen on \(name)") { Glibc.listen(fd, 128) }
        } catch {
            Glibc.close(fd)
            throw error
        }
        return fd
    }
}
