#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore

/// Who a list of users, groups and systemd units lets in, resolved when the
/// server starts: the one matcher of peers for a client's program sockets
/// (`allow_users`, `allow_groups` and the client's app) and for its app on
/// the control socket (`app_users`, `app_groups`, `app_units`). Without any
/// name, anyone who can reach a program socket may connect; root always may.
struct ProgramAllowList: Sendable {
    /// Anyone may connect.
    var everyone: Bool
    /// The allowed users' IDs.
    var users: Set<UInt32>
    /// The allowed groups.
    var groups: [SocketGroup]
    /// The allowed systemd units (`survey.service`).
    var units: Set<String> = []

    /// Who may connect to the program sockets of `client`: its
    /// `allow_users`/`allow_groups` and its app (one declaration of who the
    /// app is); anyone when none is named. Names that do not exist are left
    /// out (nobody is let in by them) and reported.
    static func resolve(_ client: ClientSettings) -> (ProgramAllowList, [String]) {
        let (users, groups, warnings) = resolve(
            users: client.programs.allowUsers.map { ($0, "allow_users") } + client.app.users.map { ($0, "app_users") },
            groups: client.programs.allowGroups.map { ($0, "allow_groups") } + client.app.groups.map { ($0, "app_groups") },
            client: client.name)
        let everyone = client.programs.allowsEveryone && client.app.isEmpty
        return (ProgramAllowList(everyone: everyone, users: users, groups: groups, units: Set(client.app.units)), warnings)
    }

    /// Who `client`'s app is (`app_users`, `app_groups`, `app_units`), or
    /// `nil` when it names none.
    static func app(_ client: ClientSettings) -> (ProgramAllowList?, [String]) {
        guard !client.app.isEmpty else { return (nil, []) }
        let (users, groups, warnings) = resolve(
            users: client.app.users.map { ($0, "app_users") }, groups: client.app.groups.map { ($0, "app_groups") },
            client: client.name)
        return (ProgramAllowList(everyone: false, users: users, groups: groups, units: Set(client.app.units)), warnings)
    }

    private static func resolve(users names: [(String, String)], groups groupNames: [(String, String)], client: String)
        -> (Set<UInt32>, [SocketGroup], [String])
    {
        var warnings: [String] = []
        var users: Set<UInt32> = []
        for (name, key) in names {
            if let uid = UInt32(name) ?? userID(named: name) {
                users.insert(uid)
            } else {
                warnings.append("[client.\(client)] \(key) names \(name), which is not a user here; it lets nobody in")
            }
        }
        var groups: [SocketGroup] = []
        for (name, key) in groupNames {
            if let gid = UInt32(name) {
                groups.append(SocketGroup(name: name, gid: gid))
                continue
            }
            switch SocketGroup.lookup(name) {
            case .success(let group): groups.append(group)
            case .failure(let error): warnings.append("[client.\(client)] \(key): \(error); it lets nobody in")
            }
        }
        return (users, groups, warnings)
    }

    /// Whether a peer with these IDs may connect; `groups` as the kernel
    /// recorded them, `nil` when it cannot say (the user database decides);
    /// `unit` the systemd unit it runs in, if known.
    func admits(uid: UInt32, gid: UInt32, groups supplementary: [UInt32]?, unit: String? = nil) -> Bool {
        if everyone || uid == 0 { return true }
        return matches(uid: uid, gid: gid, groups: supplementary, unit: unit)
    }

    /// Whether the peer is named by a user, group or unit (root is not thereby named).
    func matches(uid: UInt32, gid: UInt32, groups supplementary: [UInt32]?, unit: String?) -> Bool {
        if users.contains(uid) { return true }
        if let unit, units.contains(unit) { return true }
        return groups.contains { $0.admits(uid: uid, gid: gid, groups: supplementary) }
    }

    /// The user ID of a user name, if the user database has it.
    static func userID(named name: String) -> UInt32? {
        user { entry, buffer, size, result in getpwnam_r(name, &entry, &buffer, size, &result) }?.uid
    }

    /// The primary group of a user ID, if the user database has it.
    static func primaryGroup(of uid: UInt32) -> UInt32? {
        user { entry, buffer, size, result in getpwuid_r(uid, &entry, &buffer, size, &result) }?.gid
    }

    /// One `getpw*_r` lookup through `SocketGroup.databaseLookup`: the entry's IDs.
    private static func user(
        _ call: (inout passwd, inout [CChar], Int, inout UnsafeMutablePointer<passwd>?) -> Int32
    ) -> (uid: UInt32, gid: UInt32)? {
        SocketGroup.databaseLookup { buffer -> (Int32, (uid: UInt32, gid: UInt32)?) in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            let code = call(&entry, &buffer, buffer.count, &result)
            guard code == 0, let found = result else { return (code, nil) }
            return (0, (found.pointee.pw_uid, found.pointee.pw_gid))
        }.value
    }
}
