#if canImport(Glibc)
import Glibc
#endif
import LocationSystem

extension ControlPeer {
    /// The control plane's view of `principal`, the one place a `ControlPeer` is made from who a
    /// peer is (the control socket's, a program's, a bus peer's): its pid, uid, gid and *system*
    /// unit, with the role (`mayChange`, `apps`) its face decided.
    init(_ principal: Principal, mayChange: Bool, apps: [String] = []) {
        self.init(
            pid: principal.pid, uid: principal.uid, gid: principal.gid, mayChange: mayChange, apps: apps,
            unit: principal.process.systemUnit)
    }

    /// The control plane's view of the peer connected on `fd` (`Principal.unixPeer`), with
    /// `mayChange` decided by `group` (uid 0 always may; without a group only uid 0 may) and `apps`
    /// by `directory` (the peer's system unit read through its pidfd only when some client names
    /// its app by unit).
    public static func of(socket fd: Int32, group: SocketGroup?) -> Result<ControlPeer, SystemError> {
        of(socket: fd, group: group, apps: AppDirectory())
    }

    static func of(socket fd: Int32, group: SocketGroup?, apps directory: AppDirectory) -> Result<ControlPeer, SystemError> {
        let principal: Principal
        switch Principal.unixPeer(socket: fd, wanting: directory.namesUnits ? [.unit] : []) {
        case .success(let found): principal = found
        case .failure(let error): return .failure(error)
        }
        return .success(ControlPeer(principal, group: group, apps: directory))
    }

    /// `principal` on the control socket: the operator when uid 0 or a member of `group`, the app
    /// of the clients `directory` names it for.
    init(_ principal: Principal, group: SocketGroup?, apps directory: AppDirectory) {
        let mayChange: Bool
        if principal.uid == 0 {
            mayChange = true
        } else if let group {
            mayChange = group.admits(uid: principal.uid, gid: principal.gid, groups: principal.groups)
        } else {
            mayChange = false
        }
        self.init(principal, mayChange: mayChange, apps: directory.clients(of: principal))
    }
}
