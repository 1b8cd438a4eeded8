#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The children still running, so that none outlives the test process: at
/// exit, every one left (and its process group) is killed. A test that fails
/// half-way or a leaked object must not leave gpsd or locationd behind.
enum ChildRegistry {
    private static let running = Mutex<[pid_t: Bool]>([:])

    private static let installed: Void = {
        atexit {
            let left = ChildRegistry.running.withLock { $0 }
            for (pid, ownGroup) in left { kill(ownGroup ? -pid : pid, SIGKILL) }
        }
    }()

    /// Notes a started child; `ownGroup`: it leads a process group of its own.
    static func add(_ pid: pid_t, ownGroup: Bool) {
        _ = installed
        running.withLock { $0[pid] = ownGroup }
    }

    /// Forgets a child that has been reaped.
    static func remove(_ pid: pid_t) {
        _ = running.withLock { $0.removeValue(forKey: pid) }
    }
}
