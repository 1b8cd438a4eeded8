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
}
