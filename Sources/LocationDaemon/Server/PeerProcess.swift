#if canImport(Glibc)
import Glibc
#endif
import CSupport
import LocationSystem

/// The process behind a socket peer, pinned by a pidfd, and the systemd unit
/// it runs in (its cgroup), so that an app can be named by its unit
/// (`app_units`) and a pid reused after the app exited is never taken for it.
///
/// * The pidfd is the kernel's own record of the process that connected
///   (`SO_PEERPIDFD`, Linux 6.5); on an older kernel, `pidfd_open` on the
///   `SO_PEERCRED` pid, kept only if that process started before the
///   connection was accepted (its start time in `/proc/PID/stat`, in clock
///   ticks since boot): a process that took the pid over later is refused.
/// * The cgroup is read from `/proc/PID/cgroup` and believed only if the
///   pidfd's process is still alive afterwards (so the pid still named it
///   while it was read); where `/proc/PID` is hidden (`ProtectProc=invisible`),
///   from the pidfd itself (`PIDFD_GET_INFO`, Linux 6.13: the cgroup's ID,
///   found under `/sys/fs/cgroup`).
/// * The unit is the innermost `.service` or `.scope` of the cgroup path.
enum PeerProcess {
    /// The unit of the peer on the connected Unix socket `fd` whose
    /// `SO_PEERCRED` pid is `pid`; `nil` when it cannot be told for certain.
    static func unit(socket fd: Int32, pid: Int32) -> String? {
        guard pid > 0 else { return nil }
        let acceptedAt = bootTicks()
        var pidfd = csupport_peer_pidfd(fd)
        if pidfd < 0 { pidfd = pinned(pid: pid, startedBy: acceptedAt) ?? -1 }
        guard pidfd >= 0 else { return nil }
        defer { Glibc.close(pidfd) }
        return unit(pidfd: pidfd, pid: pid)
    }

    /// The unit of the process `pid` (a loopback peer found through its
    /// socket's inode), pinned as an old kernel's Unix peer is.
    static func unit(pid: Int32) -> String? {
        guard pid > 0, let pidfd = pinned(pid: pid, startedBy: bootTicks()) else { return nil }
        defer { Glibc.close(pidfd) }
        return unit(pidfd: pidfd, pid: pid)
    }

    /// A pidfd on the process that has `pid` now, if it started no later
    /// than `startedBy` (clock ticks since boot) and is still alive after its
    /// start time was read; `nil` otherwise: a process that took the pid over
    /// after the connection is not the peer.
    static func pinned(pid: Int32, startedBy: UInt64) -> Int32? {
        let pidfd = csupport_pidfd_open(pid)
        guard pidfd >= 0 else { return nil }
        guard let started = startTime(pid: pid), started <= startedBy, csupport_pidfd_alive(pidfd) == 1 else {
            Glibc.close(pidfd)
            return nil
        }
        return pidfd
    }

    private static func unit(pidfd: Int32, pid: Int32) -> String? {
        if let text = readText("/proc/\(pid)/cgroup", limit: 64 << 10) {
            // Read through the pid: believed only if the pidfd's process still holds it.
            guard csupport_pidfd_alive(pidfd) == 1 else { return nil }
            return cgroupPath(text).flatMap(unitName)
        }
        var id: UInt64 = 0
        guard csupport_pidfd_cgroup_id(pidfd, &id) == 0 else { return nil }
        return cgroupDirectory(id: id).flatMap(unitName)
    }

    /// The process's start time in clock ticks since boot (`/proc/PID/stat`, field 22).
    static func startTime(pid: Int32) -> UInt64? {
        guard let text = readText("/proc/\(pid)/stat", limit: 4096),
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

    /// The cgroup path of `/proc/PID/cgroup`: the unified hierarchy's
    /// (`0::PATH`), or systemd's own (`N:name=systemd:PATH`) on a hybrid
    /// system whose unified path says nothing.
    static func cgroupPath(_ text: String) -> String? {
        var unified: String?
        var named: String?
        for line in text.split(separator: "\n") {
            // ID:CONTROLLERS:PATH, and the path may hold colons.
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            if parts[0] == "0" && parts[1].isEmpty { unified = String(parts[2]) }
            if parts[1] == "name=systemd" { named = String(parts[2]) }
        }
        if let unified, unified != "/" { return unified }
        return named ?? unified
    }

    /// The innermost `.service` or `.scope` of a cgroup path
    /// (`/system.slice/survey.service` → `survey.service`); `nil` for none.
    static func unitName(_ path: String) -> String? {
        let unit = path.split(separator: "/").last { $0.hasSuffix(".service") || $0.hasSuffix(".scope") }
        return unit.map(String.init)
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

    static func readText(_ path: String, limit: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        guard let bytes = try? DescriptorIO.readAll(fd, limit: limit, name: path) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
