#if canImport(Glibc)
import Glibc
#endif
import CSupport
import LocationCore
import LocationSystem

/// Who a connected program is: its `Principal`, made by its transport's
/// resolver.
///
/// * On a Unix socket: `Principal.unixPeer` (`SO_PEERCRED`, `SO_PEERGROUPS`,
///   the kernel's pidfd of the process that connected).
/// * On loopback TCP (`loopback`): the kernel's table of TCP sockets
///   (`/proc/net/tcp`, `/proc/net/tcp6`) names the owner (uid) and inode of
///   the peer's end of the connection; the process is the one holding that
///   inode among its descriptors (`/proc/PID/fd`), when locationd may look,
///   pinned by `pidfd_open` and kept only if, the pidfd open, that process
///   still holds the socket.
/// * The name (`/proc/PID/comm`) and, where the client names its app by unit,
///   the system unit are read through the pinned process (`PeerProcess.facts`).
struct ProgramPeer: Sendable {
    /// Who it is.
    var principal: Principal

    /// As the control plane writes peers (`mayChange` is always `false`: a program changes nothing by itself).
    var credentials: ControlPeer { ControlPeer(principal, mayChange: false) }
    /// Supplementary groups as the kernel recorded them, if it could say.
    var groups: [UInt32]? { principal.groups }
    /// Whether the process ID is known.
    var pidKnown: Bool { principal.pid > 0 }
    /// `/proc/PID/comm` of the pinned process, if readable.
    var name: String? { principal.process.name }

    /// The peer on a Unix socket with the facts in `wanting`, or `nil` when the kernel cannot say.
    static func unix(_ fd: Int32, wanting: ProcessFacts.Wanted) -> ProgramPeer? {
        guard case .success(let principal) = Principal.unixPeer(socket: fd, wanting: wanting) else { return nil }
        return ProgramPeer(principal: principal)
    }

    /// The peer on a loopback TCP connection with the facts in `wanting`, or `nil` when its socket
    /// is not in the kernel's table (it went already) or the addresses cannot be read.
    static func loopback(_ fd: Int32, wanting: ProcessFacts.Wanted) -> ProgramPeer? {
        guard let peer = address(of: fd, peer: true), let local = address(of: fd, peer: false) else { return nil }
        // /proc/self/net, not /proc/net: the unit's ProcSubset=pid hides the latter, never the former.
        let table = peer.family == AF_INET6 ? "/proc/self/net/tcp6" : "/proc/self/net/tcp"
        guard let text = PeerProcess.readText(table, limit: 16 << 20) else { return nil }
        // The peer's own line: its local address is our remote one, and the other way round.
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, fields[1] == peer.text, fields[2] == local.text,
                let uid = UInt32(fields[7]), let inode = UInt64(fields[9])
            else { continue }
            let gid = ProgramAllowList.primaryGroup(of: uid) ?? UInt32.max
            var principal = Principal(uid: uid, gid: gid, groups: nil, pid: 0)
            if inode != 0, let pid = process(holdingSocket: inode) {
                principal.pid = pid
                if !wanting.isEmpty, let facts = pinnedFacts(pid: pid, socket: inode, wanting: wanting) {
                    principal.process = facts
                }
            }
            return ProgramPeer(principal: principal)
        }
        return nil
    }

    /// The facts of `pid`, pinned: a pidfd opened on it, then the process that has the pid checked
    /// to hold the socket still (the one that held it may have exited and its pid been reused).
    private static func pinnedFacts(pid: Int32, socket inode: UInt64, wanting: ProcessFacts.Wanted) -> ProcessFacts? {
        let pidfd = csupport_pidfd_open(pid)
        guard pidfd >= 0 else { return nil }
        defer { close(pidfd) }
        guard holds(pid: pid, socket: "socket:[\(inode)]") else { return nil }
        guard case .success(let facts) = PeerProcess.facts(pidfd: pidfd, pid: pid, wanting: wanting) else { return nil }
        return facts
    }

    /// An address as `/proc/net/tcp` writes it: each 32-bit word of the
    /// address in host order as 8 hex digits, `:`, the port as 4.
    private struct TableAddress {
        var family: Int32
        var text: Substring
    }

    private static func address(of fd: Int32, peer: Bool) -> TableAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard result == 0 else { return nil }
        let family = Int32(storage.ss_family)
        let found: (bytes: [UInt8], port: UInt16)
        switch family {
        case AF_INET: found = Self.parts(of: storage, as: sockaddr_in.self, \.sin_addr, \.sin_port)
        case AF_INET6: found = Self.parts(of: storage, as: sockaddr_in6.self, \.sin6_addr, \.sin6_port)
        default: return nil
        }
        let (bytes, port) = found
        var text = ""
        for word in stride(from: 0, to: bytes.count, by: 4) {
            let value = UInt32(bytes[word]) | UInt32(bytes[word + 1]) << 8 | UInt32(bytes[word + 2]) << 16
                | UInt32(bytes[word + 3]) << 24
            text += hex(UInt64(value), digits: 8)
        }
        text += ":" + hex(UInt64(port), digits: 4)
        return TableAddress(family: family, text: text[...])
    }

    /// The address bytes (network order) and the port of an `Address` held in `storage`.
    private static func parts<Address, Host>(
        of storage: sockaddr_storage, as type: Address.Type, _ host: KeyPath<Address, Host>,
        _ port: KeyPath<Address, UInt16>
    ) -> (bytes: [UInt8], port: UInt16) {
        withUnsafeBytes(of: storage) { raw in
            let address = raw.loadUnaligned(as: Address.self)
            return (withUnsafeBytes(of: address[keyPath: host]) { Array($0) }, UInt16(bigEndian: address[keyPath: port]))
        }
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The process whose descriptors include the socket with this inode.
    private static func process(holdingSocket inode: UInt64) -> Int32? {
        let target = "socket:[\(inode)]"
        guard let proc = opendir("/proc") else { return nil }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid != getpid() else { continue }
            if holds(pid: pid, socket: target) { return pid }
        }
        return nil
    }

    /// Whether `pid` has a descriptor on `target` (`socket:[INODE]`).
    private static func holds(pid: Int32, socket target: String) -> Bool {
        let directory = "/proc/\(pid)/fd"
        guard let fds = opendir(directory) else { return false }
        defer { closedir(fds) }
        var link = [CChar](repeating: 0, count: 64)
        while let fd = readdir(fds) {
            let fdName = withUnsafeBytes(of: fd.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard fdName.first?.isNumber == true else { continue }
            let n = readlink("\(directory)/\(fdName)", &link, link.count - 1)
            guard n > 0 else { continue }
            let text = link.prefix(n).withUnsafeBufferPointer { String(decoding: UnsafeRawBufferPointer($0), as: UTF8.self) }
            if text == target { return true }
        }
        return false
    }
}
