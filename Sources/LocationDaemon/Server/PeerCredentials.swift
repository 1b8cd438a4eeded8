#if canImport(Glibc)
import Glibc
#endif
import CSupport
import LocationSystem

/// What a server loop keeps of a connection's peer (its limits count
/// connections per uid): made from the peer's `Principal`, the one record of
/// who it is. What a peer may do (its role, whose app it is) is decided by
/// the conversation that admits it, in its own types.
struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// Process ID of the peer when it connected (0: not known).
    var pid: Int32
    /// Effective user ID (`UInt32.max`: not known).
    var uid: UInt32
    /// Effective group ID (`UInt32.max`: not known).
    var gid: UInt32
    /// Supplementary groups (`SO_PEERGROUPS`); `nil` when the kernel cannot say.
    var groups: [UInt32]?

    /// A peer nobody can name.
    static let unknown = PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max, groups: nil)

    /// The peer's supplementary groups as the kernel recorded them at
    /// connect time; `nil` when the kernel cannot say.
    static func supplementaryGroups(_ fd: Int32) -> [UInt32]? {
        var capacity: Int32 = 32
        while capacity <= 65_536 {
            var groups = [UInt32](repeating: 0, count: Int(capacity))
            var count = capacity
            if csupport_peer_groups(fd, &groups, &count) == 0 {
                return Array(groups.prefix(Int(count)))
            }
            guard errno == ERANGE, count > capacity else { return nil }
            capacity = count
        }
        return nil
    }

    /// `uid 1000 pid 4242`.
    var description: String { "uid \(uid) pid \(pid)" }
}
