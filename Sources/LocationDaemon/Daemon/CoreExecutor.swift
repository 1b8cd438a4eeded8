import LocationSystem
import Dispatch
import Synchronization

/// The daemon's one thread for asynchronous work. `Daemon.run` makes it the
/// task executor preference of everything it starts — every service's
/// `run()`, the signal listener, SIGHUP's reload, shutdown — and the control
/// server starts its handler calls on it, so a control request, a tick or a
/// state save that blocks (waiting for the engine's lock while the reader
/// thread syncs a log, `fdatasync`, the state file's rename) blocks this
/// thread and never one of the cooperative pool's. Fixes never come here:
/// the reader thread that read one carries it to the log itself.
///
/// Jobs run one at a time in the order they were enqueued.
public final class CoreExecutor: TaskExecutor {
    /// The daemon's core executor (its thread starts with `start()`).
    public static let shared = CoreExecutor()

    private struct Queue {
        var jobs: [UnownedJob] = []
        var head = 0
        var started = false
    }

    private let queue = Mutex(Queue())
    private let ready = DispatchSemaphore(value: 0)

    private init() {}

    /// Starts the thread (once; later calls do nothing).
    public func start() throws(SystemError) {
        let first = queue.withLock { queue in
            defer { queue.started = true }
            return !queue.started
        }
        guard first else { return }
        do {
            try DaemonThread.start(name: "locationd-core") { self.run() }
        } catch {
            queue.withLock { $0.started = false }
            throw error
        }
    }

    /// Makes the calling thread the core thread and runs its jobs there,
    /// never returning (the program ends with `exit`). `locationd run` gives
    /// it the main thread, which would otherwise sit idle or leave through
    /// `dispatch_main`'s `pthread_exit`, whose unwinding of the main stack
    /// reads every frame's unwind tables and maps them (docs/ARCHITECTURE.md,
    /// "Resident memory"). Later `start()` calls do nothing.
    public func runOnCurrentThread() -> Never {
        queue.withLock { $0.started = true }
        run()
    }

    /// Queues `job` for the core thread (a job queued before `start()` waits for it).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.jobs.append(job) }
        ready.signal()
    }

    private func run() -> Never {
        let executor = asUnownedTaskExecutor()
        while true {
            ready.wait()
            let job = queue.withLock { queue -> UnownedJob in
                let job = queue.jobs[queue.head]
                queue.head += 1
                if queue.head == queue.jobs.count {
                    queue.jobs.removeAll(keepingCapacity: true)
                    queue.head = 0
                }
                return job
            }
            job.runSynchronously(on: executor)
        }
    }
}
