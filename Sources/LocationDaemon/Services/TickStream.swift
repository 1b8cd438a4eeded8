/// A tick every `interval` seconds as an async sequence that `stop()` ends at
/// once — so a service waiting for its next tick leaves without waiting out
/// the interval (SIGTERM must be handled within a second).
public final class TickStream: Sendable {
    /// The ticks. The first comes one interval after `init`; ticks a slow
    /// consumer missed are merged into one.
    public let ticks: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let timer: Task<Void, Never>

    /// Starts ticking every `interval` seconds.
    public init(interval: Double) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        ticks = stream
        self.continuation = continuation
        let nanoseconds = UInt64(max(interval, 0.001) * 1e9)
        timer = Task {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(nanoseconds: nanoseconds)
                } catch {
                    break
                }
                continuation.yield()
            }
        }
    }

    deinit {
        stop()
    }

    /// Ends the ticks: a `for await` over `ticks` finishes now.
    public func stop() {
        timer.cancel()
        continuation.finish()
    }
}
