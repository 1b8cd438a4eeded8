/// A tick whenever a time set with `due(by:)` comes — or, made with `init()`,
/// never — as an async sequence that `stop()` ends at once, so a service
/// waiting for its next tick leaves without waiting (SIGTERM must be handled
/// within a second).
///
/// The ticks are alarms of the core thread (`CoreExecutor.addAlarm`), which
/// the daemon's services run on: a tick wakes that thread alone, and the
/// service's loop resumes on it without a hop through the cooperative pool.
/// There are no repeating ticks: the daemon wakes only when something is due.
public final class TickStream: Sendable {
    /// The ticks; ticks a slow consumer missed are merged into one.
    public let ticks: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let executor: CoreExecutor
    private let alarm: Int?

    /// Never ticks: `ticks` only ends at `stop()` (a service with nothing to
    /// wait for but shutdown). Sets no alarm and starts no thread.
    public init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        ticks = stream
        self.continuation = continuation
        executor = .shared
        alarm = nil
    }

    /// Ticks only when a time set with `due(by:)` comes, once for each
    /// setting (the core's timers: only when something is due). Starts the
    /// core thread if nothing has.
    public init(alarmOn executor: CoreExecutor = .shared) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        ticks = stream
        self.continuation = continuation
        self.executor = executor
        // `Daemon.run` started it already, or refused to run; a test may be the first.
        try? executor.start()
        alarm = executor.addAlarm { continuation.yield() }
    }

    /// The next tick comes by `time` (monotonic seconds) at the latest:
    /// earlier if it was set earlier already (`CoreExecutor.setAlarm`). From
    /// any thread; ignored by a stream that never ticks.
    public func due(by time: Double) {
        guard let alarm else { return }
        executor.setAlarm(alarm, dueBy: time)
    }

    deinit {
        stop()
    }

    /// Ends the ticks: a `for await` over `ticks` finishes now.
    public func stop() {
        if let alarm { executor.cancelTimer(alarm) }
        continuation.finish()
    }
}
