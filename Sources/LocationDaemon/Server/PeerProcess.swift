#if canImport(Glibc)
import Glibc
#endif
import CSupport
import LocationSystem

/// The process behind a peer, pinned by a pidfd, and what can be told of it
/// for certain (`ProcessFacts`): the one place every face reads a peer's
/// process (docs/authorization.md, "Who a peer is").
///
/// * **Pinned.** Each fact is read through the pid and believed only if the
///   pidfd's process is still alive afterwards: the pid still named it while
///   it was read. How the pidfd was had is the transport's business
///   (`Principal`): the kernel's own for a Unix socket (`SO_PEERPIDFD`), the
///   bus's own or one checked against the bus for a bus peer.
/// * **The unit** (`units(ofCgroup:)`) is the systemd unit the *system*
///   manager runs the process in, as `sd_pid_get_unit` says: the first unit
///   of its cgroup path below the leading slices. A path through a user's
///   manager (`user@UID.service`) is that manager's subtree: its system unit
///   is `user@UID.service`, and what the user's manager runs there is a *user
///   unit*, never a system one (`sd_pid_get_user_unit`).
/// * **The sandbox** is what the process's own root holds (`FlatpakInfo`),
///   never a cgroup name.
/// * **The name** is `/proc/PID/comm`: a label, never an identity.
///
/// Paths are under `proc` (`/proc`), so tests can read a scratch directory.
enum PeerProcess {
    /// `/proc/PID/comm` without its newline, read through the pid alone: a label for people (a
    /// watcher's), never an identity; a peer's own is `principal.process.name`.
    static func processName(_ pid: Int32) -> String? {
        guard pid > 0, let text = readText("/proc/\(pid)/comm", limit: 256) else { return nil }
        let name = text.split(separator: "\n").first.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }

    // MARK: Pinning

    /// A pidfd on the process that has `pid` now, if it started no later
    /// than `startedBy` (clock ticks since boot) and is still alive after its
    /// start time was read; `nil` otherwise: a process that took the pid over
    /// after the connection is not the peer.
    static func pinned(pid: Int32, startedBy: UInt64, proc: String = "/proc") -> Int32? {
        guard pid > 0 else { return nil }
        let pidfd = csupport_pidfd_open(pid)
        guard pidfd >= 0 else { return nil }
        guard let started = startTime(pid: pid, proc: proc), started <= startedBy, csupport_pidfd_alive(pidfd) == 1 else {
            Glibc.close(pidfd)
            return nil
        }
        return pidfd
    }

    /// The process's start time in clock ticks since boot (`/proc/PID/stat`, field 22).
    static func startTime(pid: Int32, proc: String = "/proc") -> UInt64? {
        guard let text = readText("\(proc)/\(pid)/stat", limit: 4096),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name (which may hold spaces): state is field 3, start time field 22.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }

    /// Now, in clock ticks since boot (`CLOCK_BOOTTIME`, as `/proc/PID/stat` counts).
    static func bootTicks() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let hertz = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        // Rounded up: a process started in this tick counts as started by now.
        return UInt64(now.tv_sec) * hertz + (UInt64(now.tv_nsec) * hertz + 999_999_999) / 1_000_000_000
    }

    /// Whether the process of `pidfd` is still running.
    static func alive(_ pidfd: Int32) -> Bool { csupport_pidfd_alive(pidfd) == 1 }

    // MARK: Facts

    /// Why a pinned process is not the peer's.
    enum PinFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// It has exited: nothing can be read of it.
        case exited
        /// It runs as another user than the one the transport vouched for: the pid names another
        /// process than the one that connected (reused while the connection lived on elsewhere).
        case otherUser(expected: UInt32, found: UInt32)

        var description: String {
            switch self {
            case .exited: "its process has exited"
            case .otherUser(let expected, let found):
                "the process with its pid runs as uid \(found), not uid \(expected): the pid names another process now"
            }
        }
    }

    /// What can be told for certain of the live process of `pidfd` (whose pid is `pid`): the facts
    /// in `wanting`, each `nil` when it cannot be read (another user's process where locationd may
    /// not look). With `expectedUID`, the process must run as that user (real or effective uid) or
    /// it is not the peer (`otherUser`); a process whose uid cannot be read then yields no fact.
    static func facts(
        pidfd: Int32, pid: Int32, wanting: ProcessFacts.Wanted, expectedUID: UInt32? = nil, proc: String = "/proc"
    ) -> Result<ProcessFacts, PinFailure> {
        var kernel = csupport_pidfd_facts()
        let told = csupport_pidfd_get_facts(pidfd, &kernel) == 0
        if !told, errno == ESRCH { return .failure(.exited) }
        guard alive(pidfd) else { return .failure(.exited) }
        var facts = ProcessFacts(pinned: true)
        if let expectedUID {
            let uids = told ? (kernel.ruid, kernel.euid) : userIDs(pid: pid, proc: proc)
            guard let (real, effective) = uids else {
                // Nothing read of it can be checked to be the peer's.
                facts.pinned = false
                return alive(pidfd) ? .success(facts) : .failure(.exited)
            }
            guard real == expectedUID || effective == expectedUID else {
                return .failure(.otherUser(expected: expectedUID, found: effective))
            }
        }
        if wanting.contains(.unit) {
            let path: String?
            if let text = readText("\(proc)/\(pid)/cgroup", limit: 64 << 10) {
                path = cgroupPath(text)
            } else if told, kernel.has_cgroup_id != 0 {
                // /proc/PID hidden (ProtectProc=invisible): the pidfd's own cgroup ID, found under /sys/fs/cgroup.
                path = cgroupDirectory(id: kernel.cgroup_id)
            } else {
                path = nil
            }
            if let path {
                let units = units(ofCgroup: path)
                facts.systemUnit = units.system
                facts.userUnit = units.user
            }
        }
        if wanting.contains(.sandbox) {
            switch openRoot(pid: pid, pidfd: pidfd, proc: proc) {
            case .success(let root):
                defer { Glibc.close(root) }
                // The root opened is the pidfd's process's only if that process still holds the pid.
                guard alive(pidfd) else { return .failure(.exited) }
                facts.sandbox = FlatpakInfo.read(rootDirectory: root)
            case .failure(.gone): return .failure(.exited)
            case .failure(.notAllowed): facts.sandbox = nil
            }
        }
        if wanting.contains(.name), let text = readText("\(proc)/\(pid)/comm", limit: 256) {
            let name = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            facts.name = name.isEmpty ? nil : name
        }
        // Every fact above was read through the pid: believed only if the process still holds it.
        guard alive(pidfd) else { return .failure(.exited) }
        return .success(facts)
    }

    /// The real and effective uid of `pid` (`/proc/PID/status`, `Uid:`).
    static func userIDs(pid: Int32, proc: String = "/proc") -> (real: UInt32, effective: UInt32)? {
        guard let text = readText("\(proc)/\(pid)/status", limit: 16 << 10) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("Uid:") {
            let ids = line.dropFirst(4).split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { UInt32($0) }
            guard ids.count >= 2 else { return nil }
            return (ids[0], ids[1])
        }
        return nil
    }

    private enum RootFailure: Error {
        /// The process has exited.
        case gone
        /// Another user's process: locationd may not look into it (or, under
        /// `ProtectProc=invisible`, even see it).
        case notAllowed
    }

    /// The root directory of `pid` as it sees it (`/proc/PID/root`), opened: what is under it is
    /// what the process sees, whatever mounts it made.
    private static func openRoot(pid: Int32, pidfd: Int32, proc: String) -> Result<Int32, RootFailure> {
        let fd = open("\(proc)/\(pid)/root", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        if fd >= 0 { return .success(fd) }
        // A process hidden from locationd is as absent from /proc as one that exited: its pidfd tells them apart.
        return alive(pidfd) ? .failure(.notAllowed) : .failure(.gone)
    }

    // MARK: Units

    /// The cgroup path of `/proc/PID/cgroup`: the unified hierarchy's
    /// (`0::PATH`), or systemd's own (`N:name=systemd:PATH`) on a hybrid
    /// system whose unified path says nothing; `nil` when the text is not
    /// what the kernel writes.
    ///
    /// A cgroup's name may hold a newline (a user names the cgroups of their
    /// own manager's subtree), so a name can fake a line: the kernel writes
    /// one line per hierarchy, IDs strictly decreasing to `0`, each
    /// hierarchy's controllers once, so a text with an ID out of order or a
    /// controller twice is taken for what it is, forged, and nothing is read
    /// from it.
    static func cgroupPath(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.last == UInt8(ascii: "\n") else { return nil }
        var unified: ArraySlice<UInt8>?
        var named: ArraySlice<UInt8>?
        var lastID: Int?
        var controllers: [ArraySlice<UInt8>] = []
        for line in bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            // ID:CONTROLLERS:PATH, and the path may hold colons.
            guard let first = line.firstIndex(of: UInt8(ascii: ":")),
                let second = line[(first + 1)...].firstIndex(of: UInt8(ascii: ":")),
                let id = decimal(line[..<first]), line[(second + 1)...].first == UInt8(ascii: "/")
            else { return nil }
            if let lastID, id >= lastID { return nil }
            lastID = id
            let listed = line[(first + 1)..<second]
            for controller in listed.split(separator: UInt8(ascii: ",")) {
                guard !controllers.contains(where: { $0.elementsEqual(controller) }) else { return nil }
                controllers.append(controller)
            }
            let path = line[(second + 1)...]
            if id == 0 {
                guard listed.isEmpty else { return nil }
                unified = path
            }
            if listed.elementsEqual("name=systemd".utf8) { named = path }
        }
        guard lastID == 0 || named != nil else { return nil }
        let root: [UInt8] = [UInt8(ascii: "/")]
        let chosen = unified.map { $0.elementsEqual(root) } == false ? unified : (named ?? unified)
        return chosen.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A decimal number of at most 9 digits, or `nil`.
    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// The units of a cgroup path, as systemd tells them (`sd_pid_get_unit`, `sd_pid_get_user_unit`):
    ///
    /// * `system`: below the leading slices, the first component, if it is a valid service or
    ///   scope name: only the system manager makes the cgroups down to it
    ///   (`/system.slice/survey.service/worker` → `survey.service`). A login session's
    ///   `session-N.scope` is one (logind's, made by the system manager); so is a user's manager,
    ///   `user@UID.service`.
    /// * `user`: what a user's manager (`user@UID.service`) or a session scope holds, below its own
    ///   slices: the user's to name as they like (`…/user@1000.service/app.slice/survey.service` →
    ///   system unit `user@1000.service`, user unit `survey.service`). Never a system unit.
    ///
    /// Any other path (the root, a slice alone, an invalid name) has no unit.
    static func units(ofCgroup path: String) -> (system: String?, user: String?) {
        let components = Array(path.utf8).split(separator: UInt8(ascii: "/"))
        guard let (system, rest) = firstUnit(components[...]) else { return (nil, nil) }
        let name = String(decoding: system, as: UTF8.self)
        guard isUserManager(system) || isSession(system) else { return (name, nil) }
        return (name, firstUnit(rest).map { String(decoding: $0.unit, as: UTF8.self) })
    }

    private typealias Component = ArraySlice<UInt8>

    /// The unit name below the leading slices of `components`, and the components below it.
    private static func firstUnit(_ components: ArraySlice<Component>) -> (unit: Component, rest: ArraySlice<Component>)? {
        var index = components.startIndex
        while index < components.endIndex, UnitName.isValid(components[index], types: [.slice]) { index += 1 }
        guard index < components.endIndex, UnitName.isValid(components[index], types: [.service, .scope]) else { return nil }
        return (components[index], components[(index + 1)...])
    }

    /// `user@UID.service`.
    private static func isUserManager(_ unit: Component) -> Bool {
        let prefix = "user@".utf8.count
        let suffix = ".service".utf8.count
        guard unit.count > prefix + suffix, unit.starts(with: "user@".utf8), unit.reversed().starts(with: "ecivres.".utf8) else {
            return false
        }
        return decimal(unit.dropFirst(prefix).dropLast(suffix)) != nil
    }

    /// `session-N.scope` (logind's scope of a login session).
    private static func isSession(_ unit: Component) -> Bool {
        unit.count > "session-.scope".utf8.count && unit.starts(with: "session-".utf8) && unit.reversed().starts(with: "epocs.".utf8)
    }

    /// The path under `/sys/fs/cgroup` of the cgroup directory whose inode is
    /// `id`, searched breadth first through at most 4096 directories.
    private static func cgroupDirectory(id: UInt64) -> String? {
        let root = "/sys/fs/cgroup"
        var queue = [""]
        var visited = 0
        while !queue.isEmpty && visited < 4096 {
            let relative = queue.removeFirst()
            visited += 1
            var info = stat()
            guard stat(root + relative, &info) == 0 else { continue }
            if UInt64(info.st_ino) == id { return relative.isEmpty ? "/" : relative }
            guard let directory = opendir(root + relative) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                guard entry.pointee.d_type == UInt8(DT_DIR) else { continue }
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { queue.append(relative + "/" + name) }
            }
        }
        return nil
    }

    // MARK: Reading

    /// The text of `path`, if it can be read and is at most `limit` bytes.
    static func readText(_ path: String, limit: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        guard let bytes = try? DescriptorIO.readAll(fd, limit: limit, name: path) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// systemd's rule for a unit name (`unit_name_is_valid`): at most 255 bytes,
/// `PREFIX.TYPE` or `PREFIX@INSTANCE.TYPE`, the prefix and instance not
/// empty, made of ASCII letters, digits and `:-_.\` (an escaped byte is
/// `\xNN`).
enum UnitName {
    /// The unit types a cgroup path holds.
    struct Types: OptionSet {
        let rawValue: UInt8
        static let service = Types(rawValue: 1)
        static let scope = Types(rawValue: 2)
        static let slice = Types(rawValue: 4)
    }

    /// Whether `name` (UTF-8) is a valid unit name of one of `types`.
    static func isValid(_ name: ArraySlice<UInt8>, types: Types) -> Bool {
        guard name.count <= 255, let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let type = name[(dot + 1)...]
        let typed =
            (types.contains(.service) && type.elementsEqual("service".utf8)) || (types.contains(.scope) && type.elementsEqual("scope".utf8))
            || (types.contains(.slice) && type.elementsEqual("slice".utf8))
        guard typed else { return false }
        let stem = name[..<dot]
        guard let at = stem.firstIndex(of: UInt8(ascii: "@")) else {
            return !stem.isEmpty && stem.allSatisfy(isAllowed)
        }
        // An instance is not empty (a template itself runs nothing); it may hold a further `@`.
        let prefix = stem[..<at]
        let instance = stem[(at + 1)...]
        return !prefix.isEmpty && prefix.allSatisfy(isAllowed) && !instance.isEmpty
            && instance.allSatisfy { isAllowed($0) || $0 == UInt8(ascii: "@") }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "\\"): true
        default: false
        }
    }
}
