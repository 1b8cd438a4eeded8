#if canImport(Glibc)
import Glibc
#endif
import LocationCore

/// Who may connect to a client's program sockets: `allow_users` and
/// `allow_groups`, resolved when the server starts. Without either, anyone
/// who can reach the socket may; root always may.
struct ProgramAllowList: Sendable {
    /// Anyone may connect.
    var everyone: Bool
    /// The allowed users' IDs.
    var users: Set<UInt32>
    /// The allowed groups.
    var groups: [SocketGroup]

    /// Resolves the names of `settings`; names that do not exist are left
    /// out (nobody is let in by them) and reported.
    static func resolve(_ settings: ProgramSettings, client: String) -> (ProgramAllowList, [String]) {
        var warnings: [String] = []
        var users: Set<UInt32> = []
        for name in settings.allowUsers {
            if let uid = UInt32(name) ?? userID(named: name) {
                users.insert(uid)
            } else {
                warnings.append("[client.\(client)] allow_users names \(name), which is not a user here; it lets nobody in")
            }
        }
        var groups: [SocketGroup] = []
        for name in settings.allowGroups {
            if let gid = UInt32(name) {
                groups.append(SocketGroup(name: name, gid: gid))
                continue
            }
            switch SocketGroup.lookup(name) {
            case .success(let group): groups.append(group)
            case .failure(let error): warnings.append("[client.\(client)] allow_groups: \(error); it lets nobody in")
            }
        }
        return (ProgramAllowList(everyone: settings.allowsEveryone, users: users, groups: groups), warnings)
    }

    /// Whether a peer with these IDs may connect; `groups` as the kernel
    /// recorded them, `nil` when it cannot say (the user database decides).
    func admits(uid: UInt32, gid: UInt32, groups supplementary: [UInt32]?) -> Bool {
        if everyone || uid == 0 || users.contains(uid) { return true }
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
