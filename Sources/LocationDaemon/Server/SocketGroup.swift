#if canImport(Glibc)
import Glibc
#endif

/// The group whose members may change state through the control socket
/// (`socket_group` in locationd.conf), as the group database had it when
/// the server started.
public struct SocketGroup: Sendable, Hashable {
    /// The group's name.
    public var name: String
    /// Its group ID.
    public var gid: UInt32
    /// The user names listed as its members (supplementary membership).
    public var members: [String]

    /// A group from its parts.
    public init(name: String, gid: UInt32, members: [String] = []) {
        self.name = name
        self.gid = gid
        self.members = members
    }

    /// Why a group could not be looked up.
    public enum LookupError: Error, Sendable, Hashable, CustomStringConvertible {
        /// No group of that name in the group database.
        case noSuchGroup(String)
        /// The lookup itself failed (NSS error).
        case failed(String, errno: Int32)

        /// A sentence naming the group and what follows from it.
        public var description: String {
            switch self {
            case .noSuchGroup(let name):
                "socket_group \"\(name)\" does not exist"
            case .failed(let name, let code):
                "cannot look up socket_group \"\(name)\": \(String(cString: strerror(code)))"
            }
        }
    }

    /// Looks a group up by name in the group database (`getgrnam_r`).
    public static func lookup(_ name: String) -> Result<SocketGroup, LookupError> {
        let (code, group) = databaseLookup { buffer -> (Int32, SocketGroup?) in
            var entry = Glibc.group()
            var result: UnsafeMutablePointer<Glibc.group>?
            let size = buffer.count
            let code = getgrnam_r(name, &entry, &buffer, size, &result)
            guard code == 0, let found = result else { return (code, nil) }
            var members: [String] = []
            if var cursor = found.pointee.gr_mem {
                while let member = cursor.pointee {
                    members.append(String(cString: member))
                    cursor += 1
                }
            }
            return (0, SocketGroup(name: name, gid: found.pointee.gr_gid, members: members))
        }
        guard code == 0 else { return .failure(.failed(name, errno: code)) }
        guard let group else { return .failure(.noSuchGroup(name)) }
        return .success(group)
    }

    /// Whether a peer with effective IDs `uid`/`gid` and supplementary
    /// groups `groups` may change state: uid 0, or this group as its primary
    /// or supplementary group. `groups == nil` means the kernel could not say
    /// (no `SO_PEERGROUPS`); the user database decides then: the group's
    /// member list, or `getgrouplist` of the peer's user name.
    public func admits(uid: UInt32, gid: UInt32, groups: [UInt32]?) -> Bool {
        if uid == 0 || gid == self.gid { return true }
        if let groups { return groups.contains(self.gid) }
        guard let user = Self.userName(uid: uid) else { return false }
        if members.contains(user) { return true }
        return Self.groupList(user: user, primary: gid).contains(self.gid)
    }

    /// The name of the user with `uid`, if the user database has one.
    static func userName(uid: UInt32) -> String? {
        databaseLookup { buffer -> (Int32, String?) in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            let size = buffer.count
            let code = getpwuid_r(uid, &entry, &buffer, size, &result)
            guard code == 0, let found = result, let name = found.pointee.pw_name else { return (code, nil) }
            return (0, String(cString: name))
        }.value
    }

    /// Runs a reentrant user or group database call (`getgrnam_r`,
    /// `getpwuid_r`): `call` gets a scratch buffer for the entry's strings,
    /// makes the call and copies out what it needs while the buffer lives,
    /// and returns the call's error code with it. `ERANGE` retries with a
    /// larger buffer (1 KiB up to 1 MiB), `EINTR` again; the last code is
    /// returned (`ERANGE` when even 1 MiB was too small).
    static func databaseLookup<T>(_ call: (inout [CChar]) -> (Int32, T?)) -> (code: Int32, value: T?) {
        var size = 1024
        while size <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: size)
            let (code, value) = call(&buffer)
            if code == ERANGE {
                size *= 4
                continue
            }
            if code == EINTR { continue }
            return (code, value)
        }
        return (ERANGE, nil)
    }

    /// Every group of `user` in the group database, with `primary`.
    static func groupList(user: String, primary: UInt32) -> [UInt32] {
        var count: Int32 = 64
        while count <= 65_536 {
            var groups = [gid_t](repeating: 0, count: Int(count))
            var found = count
            if getgrouplist(user, primary, &groups, &found) >= 0 {
                return Array(groups.prefix(Int(found)))
            }
            // -1 with found set to the number needed: grow and retry.
            count = max(found, count * 2)
        }
        return [primary]
    }
}
