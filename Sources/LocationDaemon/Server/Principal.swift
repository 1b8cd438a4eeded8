#if canImport(Glibc)
import Glibc
#endif
import CSupport
import LocationSystem

/// Who a peer is, whatever face it came through: the control socket, a
/// client's program sockets or the GeoClue bus (docs/authorization.md, "Who
/// a peer is"). Made once per peer by its transport's resolver, from what
/// the peer cannot forge:
///
/// * `unixPeer`: the kernel's record of the connecting process (`SO_PEERCRED`,
///   `SO_PEERGROUPS`, `SO_PEERPIDFD`);
/// * `ProgramPeer.loopback`: the kernel's table of TCP sockets, and the process
///   holding the peer's end;
/// * `busPeer`: what the bus daemon recorded when the peer connected
///   (`GetConnectionCredentials`), the process checked to be the connection's.
///
/// Each feeds one function, `PeerProcess.facts`, for what can be told of the
/// pinned process. What a principal may do is decided by whoever admits it
/// (`ControlPeer`, `ProgramAllowList`, the GeoClue face), never here.
struct Principal: Sendable, Hashable, CustomStringConvertible {
    /// User ID (`UInt32.max`: not known).
    var uid: UInt32
    /// Group ID (`UInt32.max`: not known; a bus peer's, which the bus does not tell apart from its groups).
    var gid: UInt32
    /// Groups, as the kernel or the bus recorded them; `nil` when neither could say (the user database decides).
    var groups: [UInt32]?
    /// Process ID when it connected (0: not known).
    var pid: Int32
    /// What can be told for certain of its process.
    var process = ProcessFacts()

    /// A peer nobody can name.
    static let unknown = Principal(uid: UInt32.max, gid: UInt32.max, groups: nil, pid: 0)

    /// `uid 1000 pid 4242`.
    var description: String { "uid \(uid) pid \(pid)" }
}

/// What can be told for certain of a peer's process, read through a pidfd
/// (`PeerProcess.facts`); each `nil` when it was not asked for or cannot be
/// told.
struct ProcessFacts: Sendable, Hashable {
    /// Which facts to read: each is a few system calls per connection, asked only where it decides something.
    struct Wanted: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        /// The units (`systemUnit`, `userUnit`).
        static let unit = Wanted(rawValue: 1)
        /// The sandbox (`sandbox`).
        static let sandbox = Wanted(rawValue: 2)
        /// The process name (`name`).
        static let name = Wanted(rawValue: 4)
    }

    /// Whether a live process was pinned as the peer's (the facts below are that process's).
    var pinned = false
    /// The systemd unit the system manager runs it in (`survey.service`): what `app_units` names.
    var systemUnit: String?
    /// The unit a user's manager (or a login session) runs it in, below `systemUnit`: that user's
    /// to name, never a system unit.
    var userUnit: String?
    /// What its own root says of its sandbox; `nil` when locationd may not look (another user's
    /// process, `ProtectProc=invisible`).
    var sandbox: Sandbox?
    /// `/proc/PID/comm`: a label for people, never an identity.
    var name: String?

    /// The Flatpak app it is, if its root says so.
    var flatpakId: String? {
        if case .flatpak(let id) = sandbox { id } else { nil }
    }
}

extension Principal {
    // MARK: Unix sockets

    /// The peer on the connected Unix socket `fd` (`SO_PEERCRED`, `SO_PEERGROUPS`), with the facts
    /// in `wanting` of the process that connected: the kernel's own pidfd of it (`SO_PEERPIDFD`,
    /// Linux 6.5), or on an older kernel `pidfd_open` on the `SO_PEERCRED` pid, kept only if that
    /// process started no later than now (the connection was just accepted).
    static func unixPeer(socket fd: Int32, wanting: ProcessFacts.Wanted) -> Result<Principal, SystemError> {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        if csupport_peer_credentials(fd, &pid, &uid, &gid) != 0 {
            return .failure(SystemError("getsockopt SO_PEERCRED", errno: errno))
        }
        var principal = Principal(uid: uid, gid: gid, groups: PeerCredentials.supplementaryGroups(fd), pid: pid)
        guard !wanting.isEmpty, pid > 0 else { return .success(principal) }
        let acceptedAt = PeerProcess.bootTicks()
        var pidfd = csupport_peer_pidfd(fd)
        if pidfd < 0 { pidfd = PeerProcess.pinned(pid: pid, startedBy: acceptedAt) ?? -1 }
        guard pidfd >= 0 else { return .success(principal) }
        defer { Glibc.close(pidfd) }
        // The kernel's pidfd is the process that connected: no other process can be in its place.
        if case .success(let facts) = PeerProcess.facts(pidfd: pidfd, pid: pid, wanting: wanting) {
            principal.process = facts
        }
        return .success(principal)
    }

    // MARK: The bus

    /// A connection's credentials as the bus daemon answers them (`GetConnectionCredentials`).
    struct BusCredentials: Sendable {
        /// `UnixUserID`.
        var uid: UInt32?
        /// `ProcessID` (0: not said).
        var pid: Int32
        /// `UnixGroupIDs`.
        var groups: [UInt32]?
        /// `ProcessFD`: the bus's own pidfd of the process that connected (owned: closed by whoever
        /// takes it), or -1 where the bus offers none (dbus-daemon 1.14).
        var pidfd: Int32 = -1
    }

    /// Why a bus peer cannot be vouched for.
    struct Unvouched: Error, Sendable, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The bus peer `name` (a unique name, the sender the bus daemon stamped on its call), from
    /// what the bus daemon vouches for, asked through `ask` (`GetConnectionCredentials`; nothing
    /// from /proc): its uid, groups and pid, and the facts in `wanting` of its process, pinned by
    /// the bus's own pidfd where it offers one, else by `pidfd_open` on its pid checked to be the
    /// connection's: after the pidfd is open the bus still has `name` with the same pid and uid, the
    /// process is alive, and it runs as that uid. A pid reused after the app exited is refused, and
    /// so is a peer the bus cannot say enough of.
    static func busPeer(
        name: String, wanting: ProcessFacts.Wanted, proc: String = "/proc",
        ask: (String) -> Result<BusCredentials, SystemError>
    ) -> Result<Principal, Unvouched> {
        let first: BusCredentials
        switch ask(name) {
        case .success(let found): first = found
        case .failure(let error):
            return .failure(Unvouched(description: "the bus cannot say who \(name) is (\(error))"))
        }
        var pidfd = first.pidfd
        defer { if pidfd >= 0 { Glibc.close(pidfd) } }
        guard let uid = first.uid, first.pid > 0 else {
            return .failure(Unvouched(description: "the bus does not vouch for \(name)'s user and process"))
        }
        let pid = first.pid
        if pidfd < 0 {
            pidfd = csupport_pidfd_open(pid)
            guard pidfd >= 0 else {
                return .failure(Unvouched(description: "\(name)'s process (pid \(pid)) has exited"))
            }
            // The pidfd names whatever has the pid now: the connection's process only if the bus
            // still has the connection, with that pid, now that the pidfd is open.
            switch ask(name) {
            case .failure(let error):
                return .failure(Unvouched(description: "\(name) left the bus while locationd checked it (\(error))"))
            case .success(let again):
                if again.pidfd >= 0 { Glibc.close(again.pidfd) }
                guard again.pid == pid, again.uid == uid else {
                    return .failure(Unvouched(description: "the bus says \(name) is another process now"))
                }
            }
        }
        switch PeerProcess.facts(pidfd: pidfd, pid: pid, wanting: wanting, expectedUID: uid, proc: proc) {
        case .failure(let failure):
            return .failure(Unvouched(description: "\(name) (pid \(pid)): \(failure)"))
        case .success(let facts):
            return .success(Principal(uid: uid, gid: UInt32.max, groups: first.groups, pid: pid, process: facts))
        }
    }
}

extension PeerCredentials {
    /// What a server loop keeps of a principal (its limits count connections per uid).
    init(_ principal: Principal) {
        self.init(pid: principal.pid, uid: principal.uid, gid: principal.gid, groups: principal.groups)
    }
}

extension ProgramAllowList {
    /// Whether `principal` is named by a user, group or *system* unit (root is not thereby named):
    /// a user unit never matches `app_units`.
    func matches(_ principal: Principal) -> Bool {
        matches(uid: principal.uid, gid: principal.gid, groups: principal.groups, unit: principal.process.systemUnit)
    }

    /// Whether `principal` may connect (anyone, root, or named: `matches`).
    func admits(_ principal: Principal) -> Bool {
        admits(uid: principal.uid, gid: principal.gid, groups: principal.groups, unit: principal.process.systemUnit)
    }
}
