#if canImport(Glibc)
import Glibc
#endif

/// What `/proc` says about a process: memory figures, CPU time, parent and group.
public enum ProcFS {
    /// A kB figure of `/proc/PID/status` (`VmRSS`, `VmHWM`, `RssAnon`…); `nil`
    /// for this process.
    public static func statusKilobytes(_ key: String, of pid: pid_t? = nil) -> Int? {
        let text = FileIO.text("/proc/\(pid.map(String.init) ?? "self")/status") ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).filter(\.isNumber))
        }
        return nil
    }

    /// Resident memory in bytes (`VmRSS`); `nil` for this process.
    public static func residentBytes(of pid: pid_t? = nil) -> Int? {
        statusKilobytes("VmRSS", of: pid).map { $0 * 1024 }
    }

    /// The fields of `/proc/PID/stat` after the command name: state, ppid,
    /// pgrp, … (`stat(5)` numbers them from 3); `nil` if the process is gone.
    public static func statFields(of pid: pid_t) -> (command: String, fields: [Substring])? {
        guard let stat = FileIO.text("/proc/\(pid)/stat"), let open = stat.firstIndex(of: "("),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let command = String(stat[stat.index(after: open)..<close])
        return (command, stat[stat.index(after: close)...].split(separator: " "))
    }

    /// User plus system CPU seconds a running process has used so far.
    public static func cpuSeconds(of pid: pid_t) -> Double? {
        // utime and stime are stat(5) fields 14 and 15: 11 and 12 after the command.
        guard let (_, fields) = statFields(of: pid), fields.count > 12, let user = Double(fields[11]),
            let system = Double(fields[12])
        else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The same user plus system CPU time to the nanosecond: the process's
    /// POSIX CPU-time clock, which the kernel keeps from each thread's run time
    /// (threads gone included), where `/proc/PID/stat` counts 10 ms ticks.
    public static func cpuClockSeconds(of pid: pid_t) -> Double? {
        var clock = clockid_t()
        var time = timespec()
        guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &time) == 0 else { return nil }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The live (not zombie) processes named `command` in process group `group`.
    public static func processes(named command: String, inGroup group: pid_t) -> [pid_t] {
        ((try? FileIO.list("/proc")) ?? []).compactMap { name in
            guard let pid = pid_t(name), let (found, fields) = statFields(of: pid), found == command,
                fields.count > 2, fields[0] != "Z", pid_t(fields[2]) == group
            else { return nil }
            return pid
        }
    }

    /// The system calls a thread blocks in to wait for input or a timeout
    /// (x86_64 and aarch64 numbers): poll, ppoll, select, pselect6, epoll_wait,
    /// epoll_pwait.
    public static let waitingSyscalls: Set<Int> = {
        #if arch(x86_64)
            [7, 271, 23, 270, 232, 281]
        #else
            [73, 72, 22]
        #endif
    }()

    /// The calling thread's id (`/proc/thread-self` links to `PID/task/TID`;
    /// Glibc's module has no gettid); 0 if /proc says nothing.
    public static func currentThreadID() -> pid_t {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard n > 0 else { return 0 }
        let link = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.split(separator: "/").last.flatMap { pid_t($0) } ?? 0
    }

    /// The system calls a thread blocks in to wait for bytes on one
    /// descriptor: read, recvfrom, recvmsg.
    public static let receivingSyscalls: Set<Int> = {
        #if arch(x86_64)
            [0, 45, 47]
        #else
            [63, 207, 212]
        #endif
    }()

    /// futex(2), which a thread blocked on a lock, a condition or a semaphore sleeps in.
    public static let futexSyscalls: Set<Int> = {
        #if arch(x86_64)
            [202]
        #else
            [98]
        #endif
    }()

    /// Whether thread `tid` of process `pid` (this process by default) is
    /// asleep (state `S`) in one of `syscalls` (`/proc/PID/task/TID/syscall`'s
    /// first field): blocked in its wait, not on its way there. Does not
    /// wait: a test polls it with `waitUntil`.
    public static func isWaiting(thread tid: pid_t, of pid: pid_t? = nil, in syscalls: Set<Int> = waitingSyscalls) -> Bool {
        let task = "/proc/\(pid.map(String.init) ?? "self")/task/\(tid)"
        guard let stat = FileIO.text(task + "/stat"), let close = stat.lastIndex(of: ")"),
            stat[stat.index(after: close)...].split(separator: " ").first == "S",
            let call = FileIO.text(task + "/syscall")?.split(separator: " ").first.flatMap({ Int($0) })
        else { return false }
        return syscalls.contains(call)
    }

    /// The threads of process `pid` named `name` (`/proc/PID/task/TID/comm`, as
    /// `pthread_setname_np` set it), waiting or not; empty if the process is gone.
    public static func threads(named name: String, of pid: pid_t) -> [pid_t] {
        ((try? FileIO.list("/proc/\(pid)/task")) ?? []).compactMap { entry in
            guard let tid = pid_t(entry),
                FileIO.text("/proc/\(pid)/task/\(entry)/comm")?.split(separator: "\n").first.map(String.init) == name
            else { return nil }
            return tid
        }
    }

    /// The threads of process `pid` named `name` (`/proc/PID/task/TID/comm`,
    /// as `pthread_setname_np` set it) that are waiting (`isWaiting`); empty
    /// if the process is gone.
    public static func waitingThreads(named name: String, of pid: pid_t, in syscalls: Set<Int> = waitingSyscalls) -> [pid_t] {
        ((try? FileIO.list("/proc/\(pid)/task")) ?? []).compactMap { entry in
            guard let tid = pid_t(entry),
                FileIO.text("/proc/\(pid)/task/\(entry)/comm")?.split(separator: "\n").first.map(String.init) == name,
                isWaiting(thread: tid, of: pid, in: syscalls)
            else { return nil }
            return tid
        }
    }
}
