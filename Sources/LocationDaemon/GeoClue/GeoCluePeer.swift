import LocationCore

/// Who a GeoClue bus peer is: its uid, gid and pid from the bus daemon
/// (`GetConnectionCredentials`), the systemd unit and Flatpak app of its
/// process (its cgroup, read through a pidfd pinned as a control peer's is,
/// `PeerProcess`) and its process name. Never what the peer says about itself.
struct GeoCluePeer: Sendable, Hashable {
    /// The peer's unique bus name (`:1.42`).
    var busName: String
    var uid: UInt32
    var gid: UInt32
    var pid: Int32
    /// The innermost `.service` or `.scope` of its cgroup.
    var unit: String?
    /// `/proc/PID/comm`.
    var processName: String?

    /// The Flatpak app id of a process in a Flatpak scope (`app-flatpak-org.gnome.Maps-4242.scope`):
    /// it names the app, whatever `DesktopId` the app sets.
    var flatpakId: String? { Self.flatpakId(unit: unit) }

    /// The app id inside `app-flatpak-ID-N.scope`; `nil` for any other unit.
    static func flatpakId(unit: String?) -> String? {
        guard let unit, unit.hasPrefix("app-flatpak-"), unit.hasSuffix(".scope") else { return nil }
        var middle = unit.dropFirst("app-flatpak-".count).dropLast(".scope".count)
        // The scope ends in `-N`, a number systemd or Flatpak added.
        if let dash = middle.lastIndex(of: "-"), middle[middle.index(after: dash)...].allSatisfy(\.isNumber) {
            middle = middle[..<dash]
        }
        return middle.isEmpty ? nil : String(middle)
    }

    /// What the access report says of it.
    var accessPeer: AccessPeer { AccessPeer(uid: uid, unit: unit, name: processName) }

    /// As the control socket's peers are written (audit log, journal).
    var credentials: ControlPeer {
        ControlPeer(pid: pid, uid: uid, gid: gid, mayChange: false, unit: unit)
    }
}
