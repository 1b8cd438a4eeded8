#if canImport(Glibc)
import Glibc
#endif
import LocationSystem

extension ControlPeer {
    /// The control plane's view of the peer connected on `fd` (its `PeerCredentials`), with `mayChange` decided
    /// by `group` (uid 0 always may; without a group only uid 0 may) and
    /// `apps` by `directory` (the unit read through a pidfd, `PeerProcess`,
    /// only when some client names its app by unit).
    public static func of(socket fd: Int32, group: SocketGroup?) -> Result<ControlPeer, SystemError> {
        of(socket: fd, group: group, apps: AppDirectory())
    }

    static func of(socket fd: Int32, group: SocketGroup?, apps directory: AppDirectory) -> Result<ControlPeer, SystemError> {
        let identity: PeerCredentials
        switch PeerCredentials.of(socket: fd) {
        case .success(let found): identity = found
        case .failure(let error): return .failure(error)
        }
        let (pid, uid, gid, groups) = (identity.pid, identity.uid, identity.gid, identity.groups)
        let mayChange: Bool
        if uid == 0 {
            mayChange = true
        } else if let group {
            mayChange = group.admits(uid: uid, gid: gid, groups: groups)
        } else {
            mayChange = false
        }
        var peer = ControlPeer(pid: pid, uid: uid, gid: gid, mayChange: mayChange)
        guard !directory.apps.isEmpty else { return .success(peer) }
        if directory.namesUnits { peer.unit = PeerProcess.unit(socket: fd, pid: pid) }
        peer.apps = directory.clients(uid: uid, gid: gid, groups: groups, unit: peer.unit)
        return .success(peer)
    }
}
