import Dispatch
import Synchronization

/// A task executor of a test's own (a serial dispatch queue) that knows when
/// it has gone quiet: every job it was given has run and none is waiting.
/// Tasks started with `Task(executorPreference:)` on it, and their child
/// tasks, run their jobs here; once it is quiet, each of them is suspended
/// on something outside it (a stream, a gate, a continuation) — the
/// condition "it waits and will not go on by itself" without a sleep. (A
/// task suspended in `Task.sleep` also leaves it quiet: use it for code that
/// waits on events, not on timers.)
public final class QuietExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "test.quiet-executor")
    private let counts = Mutex((given: 0, ran: 0))

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        counts.withLock { $0.given += 1 }
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            self.counts.withLock { $0.ran += 1 }
        }
    }

    /// Whether it was given at least one job and every job it was given has run.
    public var isQuiet: Bool {
        counts.withLock { $0.given > 0 && $0.ran == $0.given }
    }
}
