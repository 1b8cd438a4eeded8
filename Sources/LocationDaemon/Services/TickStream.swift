/// A tick every `interval` seconds as an async sequence that `stop()` ends at
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
