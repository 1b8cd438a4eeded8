#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import Synchronization

/// The daemon's one thread for asynchronous work and for its timers.
/// `Daemon.run` makes it the task executor preference of everything it
/// starts — every service's `run()`, the signal listener, SIGHUP's reload,
/// shutdown — and the control server starts its handler calls on it, so a
/// control request, a tick or a state save that blocks (waiting for the
/// engine's lock while the reader thread syncs a log, the state file's
/// rename) blocks this thread and never one of the cooperative pool's.
/// Fixes never come here: the reader thread that read one carries it to the
/// log itself.
///
/// Jobs run one at a time in the order they were enqueued. Alarms
/// (`addAlarm`, which `TickStream` uses) and the signal pipe (`addReader`,
/// for `SignalRouter`) are served on this thread too: it sleeps in poll(2)
/// until the next alarm is due, a job comes or the pipe has input, so a tick
/// or a signal wakes this one thread and no other — not the cooperative
/// pool, not a dispatch thread (docs/ARCHITECTURE.md, "Threads"). poll(2)'s
/// timeout runs on the monotonic clock, so setting the wall clock (gpsd,
/// NTP) neither delays nor hurries a timer.
public final class CoreExecutor: TaskExecutor {
    /// The daemon's core executor (its thread starts with `start()`).
    public static let shared = CoreExecutor()

    /// An alarm: fires once at `due` each time it is set. (The daemon wakes
    /// only when something is due, so it has no repeating timers.)
    private struct Timer {
        let id: Int
        /// When it fires (monotonic seconds; infinity: not set).
        var due = Double.infinity
        let fire: @Sendable () -> Void
    }

    /// A descriptor watched for input.
    private struct Reader {
        let fd: Int32
        let readable: @Sendable () -> Void
    }

    private struct Queue {
        var jobs: [UnownedJob] = []
        var head = 0
        var started = false
        /// Whether the thread is in (or about to enter) poll(2): only then
        /// does a new job or timer signal the wakeup.
        var sleeping = false
        /// While `sleeping`: when poll(2)'s timeout ends the sleep (monotonic seconds; infinity: none).
        var sleepsUntil = Double.infinity
        var timers: [Timer] = []
        var nextTimer = 0
        var readers: [Reader] = []

        mutating func takeJob() -> UnownedJob? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            return job
        }
    }

    private let queue = Mutex(Queue())
    private let wakeup: Wakeup?

    private init() {
        // Without an eventfd (no descriptors or memory left at start-up) the
        // thread looks for work every 10 ms instead of being woken.
        wakeup = try? Wakeup()
    }

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
        let wake = queue.withLock { queue in
            queue.jobs.append(job)
            defer { queue.sleeping = false }
            return queue.sleeping
        }
        if wake { wakeup?.signal() }
    }

    /// An alarm: calls `fire` on the core thread once `setAlarm` is due,
    /// and again each time it is set again, until `cancelTimer` with the
    /// returned identifier. Made unset.
    public func addAlarm(_ fire: @escaping @Sendable () -> Void) -> Int {
        queue.withLock { queue in
            let id = queue.nextTimer
            queue.nextTimer += 1
            queue.timers.append(Timer(id: id, fire: fire))
            return id
        }
    }

    /// Sets alarm `id` to fire at `time` (monotonic seconds) unless it is set
    /// to fire earlier already: a later time leaves it as it is, so every
    /// caller (any thread) only says by when it must fire. Wakes the thread
    /// when it sleeps past `time`, and only then.
    public func setAlarm(_ id: Int, dueBy time: Double) {
        guard time.isFinite else { return }
        let wake = queue.withLock { queue -> Bool in
            guard let index = queue.timers.firstIndex(where: { $0.id == id }), time < queue.timers[index].due
            else { return false }
            queue.timers[index].due = time
            guard queue.sleeping, time < queue.sleepsUntil else { return false }
            queue.sleeping = false
            return true
        }
        if wake { wakeup?.signal() }
    }

    /// When alarm `id` fires next (infinity: not set; tests).
    func alarm(_ id: Int) -> Double {
        queue.withLock { queue in queue.timers.first { $0.id == id }?.due ?? .infinity }
    }

    /// Stops alarm `id` (from any thread; a firing already under way still finishes).
    public func cancelTimer(_ id: Int) {
        queue.withLock { $0.timers.removeAll { $0.id == id } }
    }

    /// Calls `readable` on the core thread whenever `fd` has input (or is
    /// hung up), for as long as the process runs: the signal pipe
    /// (`SignalRouter`), so signals need no thread of their own. `readable`
    /// must read what is there, or it is called again at once.
    public func addReader(_ fd: Int32, _ readable: @escaping @Sendable () -> Void) {
        let wake = queue.withLock { queue in
            queue.readers.append(Reader(fd: fd, readable: readable))
            defer { queue.sleeping = false }
            return queue.sleeping
        }
        if wake { wakeup?.signal() }
    }

    private func run() -> Never {
        let executor = asUnownedTaskExecutor()
        while true {
            while let job = queue.withLock({ $0.takeJob() }) {
                job.runSynchronously(on: executor)
            }
            let now = SystemClock.monotonic()
            let due = queue.withLock { queue -> [@Sendable () -> Void] in
                var due: [@Sendable () -> Void] = []
                for index in queue.timers.indices where queue.timers[index].due <= now {
                    due.append(queue.timers[index].fire)
                    queue.timers[index].due = .infinity
                }
                return due
            }
            if !due.isEmpty {
                for fire in due { fire() }
                continue
            }
            // Nothing to run: sleep until the next alarm, a job or input.
            let (timeout, readers) = queue.withLock { queue -> (Double?, [Reader]) in
                guard queue.head == queue.jobs.count else { return (0, []) }
                let next = queue.timers.lazy.map(\.due).min() ?? .infinity
                let timeout = next.isFinite ? max(next - now, 0) : nil
                if timeout != 0 {
                    queue.sleeping = true
                    queue.sleepsUntil = next
                }
                return (timeout, queue.readers)
            }
            if timeout == 0 { continue }
            let input = sleep(timeout: timeout, readers: readers)
            queue.withLock { $0.sleeping = false }
            for reader in input { reader.readable() }
        }
    }

    /// One poll(2) over the wakeup and the readers, up to `timeout` seconds
    /// (nil: until something comes); returns the readers that have input.
    private func sleep(timeout: Double?, readers: [Reader]) -> [Reader] {
        var milliseconds: Int32 = timeout.map { Int32(min(($0 * 1000).rounded(.up), Double(Int32.max))) } ?? -1
        if wakeup == nil { milliseconds = milliseconds < 0 ? 10 : min(milliseconds, 10) }
        var fds = readers.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        fds.append(pollfd(fd: wakeup?.descriptor ?? -1, events: Int16(POLLIN), revents: 0))
        let ready = poll(&fds, nfds_t(fds.count), milliseconds)
        guard ready > 0 else { return [] }
        if fds[readers.count].revents != 0 { wakeup?.reset() }
        return readers.indices.filter { fds[$0].revents != 0 }.map { readers[$0] }
    }
}
