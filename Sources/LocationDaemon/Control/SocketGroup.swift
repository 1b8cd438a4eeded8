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
        var size = 1024
        while size <= 1 << 20 {
            var entry = Glibc.group()
            var result: UnsafeMutablePointer<Glibc.group>?
            var buffer = [CChar](repeating: 0, count: size)
            let code = getgrnam_r(name, &entry, &buffer, size, &result)
            if code == ERANGE {
                size *= 4
                continue
            }
            if code == EINTR { continue }
            guard code == 0 else { return .failure(.failed(name, errno: code)) }
            guard let found = result else { return .failure(.noSuchGroup(name)) }
            var members: [String] = []
            if var cursor = found.pointee.gr_mem {
                while let member = cursor.pointee {
                    members.append(String(cString: member))
                    cursor += 1
                }
            }
            return .success(SocketGroup(name: name, gid: found.pointee.gr_gid, members: members))
        }
        return .failure(.failed(name, errno: ERANGE))
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
        var size = 1024
        while size <= 1 << 20 {
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            var buffer = [CChar](repeating: 0, count: size)
            let code = getpwuid_r(uid, &entry, &buffer, size, &result)
            if code == ERANGE {
                size *= 4
                continue
            }
            if code == EINTR { continue }
            guard code == 0, let found = result, let name = found.pointee.pw_name else { return nil }
            return String(cString: name)
        }
        return nil
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
