import Dispatch
import LocationCore
import Synchronization

/// A `SourceSink` for an async consumer: the bounded hand-over from a
/// source's reader thread to an `AsyncStream` (`FixSource.start()`).
///
/// The reader waits when `capacity` events are waiting (the one overflow
/// policy of `SourceSink`), so a slow consumer slows reading down (a file is
/// read no faster than it is consumed; a serial line or gpsd's socket then
/// holds the bytes in the kernel) instead of memory growing without bound.
final class SourceChannel: SourceSink {
    /// What `FixSource.start()` uses.
    static let defaultCapacity = 256

    private struct State {
        var queue: [SourceEvent] = []
        var head = 0
        var waiter: CheckedContinuation<SourceEvent?, Never>?
        var finished = false
        /// The reader is blocked waiting for room.
        var producerWaiting = false
        var consumerGone: (@Sendable () -> Void)?

        var queued: Int { queue.count - head }
    }

    private let capacity: Int
    private let state = Mutex(State())
    /// Wakes a reader blocked on a full queue. Created at 0 and only ever
    /// signalled for a waiter, so it never holds less than it started with
    /// (libdispatch traps when a semaphore is freed below its initial value).
    private let room = DispatchSemaphore(value: 0)

    /// A channel holding at most `capacity` events.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The consumer's side: an `AsyncStream` that ends after `finish()` (once
    /// the queue is drained), and whose cancellation finishes the channel and
    /// stops the reader.
    func stream() -> AsyncStream<SourceEvent> {
        AsyncStream(
            unfolding: { await self.next() },
            onCancel: {
                let stop = self.state.withLock { $0.consumerGone }
                self.finish()
                stop?()
            })
    }

    func whenConsumerGone(_ stop: @escaping @Sendable () -> Void) {
        state.withLock { $0.consumerGone = stop }
    }

    /// Hands `event` over, waiting for room as long as it takes. False when
    /// the channel is finished (before or while waiting).
    func take(_ event: SourceEvent) -> Bool {
        send(event, keepGoing: { true })
    }

    /// Hands `event` over, waiting for room while `keepGoing()` holds.
    /// False when the channel is finished or `keepGoing()` became false.
    func send(_ event: SourceEvent, keepGoing: () -> Bool) -> Bool {
        enum Outcome { case queued, handed(CheckedContinuation<SourceEvent?, Never>), finished, full }
        while true {
            let outcome: Outcome = state.withLock { s in
                if s.finished { return .finished }
                if let waiter = s.waiter {
                    s.waiter = nil
                    return .handed(waiter)
                }
                if s.queued >= capacity {
                    s.producerWaiting = true
                    return .full
                }
                s.queue.append(event)
                return .queued
            }
            switch outcome {
            case .queued:
                return true
            case .handed(let waiter):
                waiter.resume(returning: event)
                return true
            case .finished:
                return false
            case .full:
                _ = room.wait(timeout: .now() + .milliseconds(50))
                if !keepGoing() { return false }
            }
        }
    }

    /// No more events; the consumer gets what is queued, then the end.
    func finish() {
        let (waiter, wakeProducer) = state.withLock { s -> (CheckedContinuation<SourceEvent?, Never>?, Bool) in
            s.finished = true
            defer {
                s.waiter = nil
                s.producerWaiting = false
            }
            return (s.waiter, s.producerWaiting)
        }
        waiter?.resume(returning: nil)
        if wakeProducer { room.signal() }
    }

    /// Whether `finish()` was called.
    var isFinished: Bool { state.withLock { $0.finished } }

    private func next() async -> SourceEvent? {
        await withCheckedContinuation { (continuation: CheckedContinuation<SourceEvent?, Never>) in
            enum Immediate { case event(SourceEvent, wakeProducer: Bool), end, wait }
            let immediate: Immediate = state.withLock { s in
                if s.head < s.queue.count {
                    let event = s.queue[s.head]
                    s.head += 1
                    if s.head >= 64 && s.head * 2 >= s.queue.count {
                        s.queue.removeFirst(s.head)
                        s.head = 0
                    }
                    let wake = s.producerWaiting
                    s.producerWaiting = false
                    return .event(event, wakeProducer: wake)
                }
                if s.finished { return .end }
                s.waiter = continuation
                return .wait
            }
            switch immediate {
            case .event(let event, let wake):
                if wake { room.signal() }
                continuation.resume(returning: event)
            case .end:
                continuation.resume(returning: nil)
            case .wait:
                break
            }
        }
    }
}
