#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import CSupport

extension PeerCredentials {
    /// The credentials of the peer connected on `fd` (`SO_PEERCRED`, and its
    /// supplementary groups from `SO_PEERGROUPS`), with `mayChange` decided
    /// by `group` (uid 0 always may; without a group only uid 0 may) and
    /// `apps` by `directory` (the unit read through a pidfd, `PeerProcess`,
    /// only when some client names its app by unit).
    public static func of(socket fd: Int32, group: SocketGroup?) -> Result<PeerCredentials, SystemError> {
        of(socket: fd, group: group, apps: AppDirectory())
    }

    static func of(socket fd: Int32, group: SocketGroup?, apps directory: AppDirectory) -> Result<PeerCredentials, SystemError> {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        if csupport_peer_credentials(fd, &pid, &uid, &gid) != 0 {
            return .failure(SystemError("getsockopt SO_PEERCRED", errno: errno))
        }
        let groups = supplementaryGroups(fd)
        let mayChange: Bool
        if uid == 0 {
            mayChange = true
        } else if let group {
            mayChange = group.admits(uid: uid, gid: gid, groups: groups)
        } else {
            mayChange = false
        }
        var peer = PeerCredentials(pid: pid, uid: uid, gid: gid, mayChange: mayChange)
        guard !directory.apps.isEmpty else { return .success(peer) }
        if directory.namesUnits { peer.unit = PeerProcess.unit(socket: fd, pid: pid) }
        peer.apps = directory.clients(uid: uid, gid: gid, groups: groups, unit: peer.unit)
        return .success(peer)
    }

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
}
