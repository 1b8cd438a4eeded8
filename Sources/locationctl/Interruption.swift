#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The signal that asked this process to stop (SIGINT, SIGTERM or SIGHUP), once `Interruption.catchStops()` ran; 0 before.
private let stopSignal = Atomic<Int32>(0)

/// For commands that must undo something before they go (`watch --in-use`, `session -- COMMAND…`):
/// a stop signal is noted instead of ending the process, and the command ends itself, then
/// dies of the same signal so the shell's status is what it would have been.
enum Interruption {
    /// Notes SIGINT, SIGTERM and SIGHUP instead of dying of them; a blocked `poll` returns `EINTR`.
    static func catchStops(_ signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { stopSignal.store($0, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(number, &action, nil)
        }
    }

    /// The signal that asked to stop, or 0.
    static var requested: Int32 { stopSignal.load(ordering: .relaxed) }

    /// Dies of `signal` as if it had not been caught.
    static func die(of number: Int32) -> Never {
        signal(number, SIG_DFL)
        raise(number)
        exit(128 + number)
    }
}
