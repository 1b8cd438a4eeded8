#if canImport(Glibc)
import Glibc
#endif
import CBus
import LocationCore
import LocationProtocol
import LocationSystem

/// Who a GeoClue bus peer is: its unique bus name and its `Principal`, made
/// from what the bus daemon vouches for (`Principal.busPeer`: uid, groups and
/// pid from `GetConnectionCredentials`, the process pinned and checked to be
/// the connection's), the process's system unit, sandbox and name read
/// through its pidfd. Never what the peer says about itself.
struct GeoCluePeer: Sendable, Hashable {
    /// The peer's unique bus name (`:1.42`).
    var busName: String
    /// Who it is.
    var principal: Principal

    var uid: UInt32 { principal.uid }
    var gid: UInt32 { principal.gid }
    var groups: [UInt32]? { principal.groups }
    var pid: Int32 { principal.pid }
    /// The systemd unit the system manager runs it in.
    var unit: String? { principal.process.systemUnit }
    /// `/proc/PID/comm`.
    var processName: String? { principal.process.name }
    /// The Flatpak app its sandbox is (its root's `/.flatpak-info`): it names the app, whatever
    /// `DesktopId` the app sets.
    var flatpakId: String? { principal.process.flatpakId }

    /// What a bus peer's `Start` needs to know of it.
    static let wanted: ProcessFacts.Wanted = [.unit, .sandbox, .name]

    /// The peer `busName` as the bus on `bus` vouches for it (`Principal.busPeer`); the reason
    /// otherwise, for the `AccessDenied` its call gets.
    static func resolve(busName: String, on bus: OpaquePointer) -> Result<GeoCluePeer, Principal.Unvouched> {
        Principal.busPeer(name: busName, wanting: wanted) { name in credentials(of: name, on: bus) }
            .map { GeoCluePeer(busName: busName, principal: $0) }
    }

    /// `GetConnectionCredentials` of `name` on `bus` (CBus): nothing read from /proc.
    static func credentials(of name: String, on bus: OpaquePointer) -> Result<Principal.BusCredentials, SystemError> {
        var peer = cbus_peer()
        let r = cbus_credentials(bus, name, &peer)
        defer { cbus_peer_clear(&peer) }
        guard r >= 0 else { return .failure(SystemError("GetConnectionCredentials", errno: -r)) }
        var found = Principal.BusCredentials(uid: peer.uid == UInt32.max ? nil : peer.uid, pid: peer.pid)
        if peer.has_groups != 0 {
            found.groups = peer.group_count == 0 ? [] : Array(UnsafeBufferPointer(start: peer.groups, count: peer.group_count))
        }
        // Taken over: cbus_peer_clear leaves it open.
        found.pidfd = peer.pidfd
        peer.pidfd = -1
        return .success(found)
    }

    /// The desktop id the peer's `Start` is for: its Flatpak app id when it runs in a Flatpak
    /// sandbox (whatever `DesktopId` it set), else the `DesktopId` it set (`claimed`). Refused, with
    /// why, for a sandbox whose app cannot be told: a `.flatpak-info` that names none, or a process
    /// in a Flatpak scope whose root locationd may not look into.
    func desktopId(claimed: String) -> Result<String, Principal.Unvouched> {
        switch principal.process.sandbox {
        case .flatpak(let id):
            return .success(id)
        case .unidentified(let why):
            return .failure(Principal.Unvouched(description: "\(busName) runs in \(Sandbox.unidentified(why))"))
        case .host:
            return .success(claimed)
        case nil:
            // Another user's process, which locationd may not look into: a process in a Flatpak
            // scope may be a sandbox, whose app id cannot be checked; any other is taken as a host
            // process (its DesktopId is its own label, the principal (desktop id, uid)).
            let units = [principal.process.systemUnit, principal.process.userUnit].compactMap { $0 }
            if units.contains(where: { $0.hasPrefix("app-flatpak-") }) {
                return .failure(
                    Principal.Unvouched(
                        description: "\(busName) runs in a Flatpak scope, and locationd may not read its /.flatpak-info "
                            + "(another user's process): its app cannot be told"))
            }
            return .success(claimed)
        }
    }

    /// What the access report says of it.
    var accessPeer: AccessPeer { AccessPeer(uid: uid, unit: unit, name: processName) }

    /// As the control socket's peers are written (audit log, journal).
    var credentials: ControlPeer { ControlPeer(principal, mayChange: false) }
}
