/// A tick every `interval` seconds — or, made with `alarm()`, whenever a
/// time set with `due(by:)` comes — as an async sequence that `stop()` ends at
/// once — so a service waiting for its next tick leaves without waiting out
/// the interval (SIGTERM must be handled within a second).
///
/// The ticks are timers of the core thread (`CoreExecutor.addTimer`), which
/// the daemon's services run on: a tick wakes that thread alone, and the
/// service's loop resumes on it without a hop through the cooperative pool.
public final class TickStream: Sendable {
    /// The ticks. The first comes within one interval of `init`, on the
    /// same beat as every other timer of that interval
    /// (`CoreExecutor.addTimer`); ticks a slow consumer missed are merged
    /// into one.
    public let ticks: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let executor: CoreExecutor
    private let timer: Int?
    private let isAlarm: Bool

    /// Starts ticking every `interval` seconds; with `nil`, never ticks, and
    /// `ticks` only ends at `stop()`. Starts the core thread if nothing has.
    public init(interval: Double?, executor: CoreExecutor = .shared) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        ticks = stream
        self.continuation = continuation
        self.executor = executor
        if let interval {
            // `Daemon.run` started it already, or refused to run; a test may be the first.
            try? executor.start()
            timer = executor.addTimer(every: interval) { continuation.yield() }
        } else {
            timer = nil
        }
        isAlarm = false
    }

    /// Ticks only when a time set with `due(by:)` comes, once for each
    /// setting (the core's timers: only when something is due). Starts the
    /// core thread if nothing has.
    public init(alarmOn executor: CoreExecutor = .shared) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        ticks = stream
        self.continuation = continuation
        self.executor = executor
        try? executor.start()
        timer = executor.addAlarm { continuation.yield() }
        isAlarm = true
    }

    /// An alarm's next tick comes by `time` (monotonic seconds) at the
    /// latest: earlier if it was set earlier already (`CoreExecutor.setAlarm`).
    /// From any thread; ignored by a repeating stream.
    public func due(by time: Double) {
        guard isAlarm, let timer else { return }
        executor.setAlarm(timer, dueBy: time)
    }

    deinit {
        stop()
    }

    /// Ends the ticks: a `for await` over `ticks` finishes now.
    public func stop() {
        if let timer { executor.cancelTimer(timer) }
        continuation.finish()
    }
}
