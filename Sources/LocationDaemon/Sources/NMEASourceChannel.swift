import Dispatch
import LocationCore
import Synchronization

/// The bounded hand-over from an NMEA source's reading thread to the
/// daemon's async consumer.
///
/// The reader blocks when `capacity` events are waiting, so a slow consumer
/// slows reading down (a file is read no faster than it is consumed; a serial
/// line then loses bytes in the kernel, as with any reader) instead of
/// memory growing without bound.
final class NMEASourceChannel: Sendable {
    private struct State {
        var queue: [SourceEvent] = []
        var head = 0
        var waiter: CheckedContinuation<SourceEvent?, Never>?
        var finished = false
    }

    private let state = Mutex(State())
    /// Counts free places in the queue.
    private let room: DispatchSemaphore

    /// A channel holding at most `capacity` events.
    init(capacity: Int) {
        room = DispatchSemaphore(value: capacity)
    }

    /// The consumer's side: an `AsyncStream` that ends after `finish()` (once
    /// the queue is drained), and whose cancellation finishes the channel.
    func stream() -> AsyncStream<SourceEvent> {
        AsyncStream(unfolding: { await self.next() }, onCancel: { self.finish() })
    }

    /// Hands `event` over, waiting for room while `keepGoing()` holds.
    /// False when the channel is finished or `keepGoing()` became false.
    func send(_ event: SourceEvent, keepGoing: () -> Bool) -> Bool {
        while room.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if !keepGoing() || isFinished { return false }
        }
        enum Outcome { case queued, handed(CheckedContinuation<SourceEvent?, Never>), finished }
        let outcome: Outcome = state.withLock { s in
            if s.finished { return .finished }
            if let waiter = s.waiter {
                s.waiter = nil
                return .handed(waiter)
            }
            s.queue.append(event)
            return .queued
        }
        switch outcome {
        case .queued:
            return true
        case .handed(let waiter):
            room.signal()
            waiter.resume(returning: event)
            return true
        case .finished:
            room.signal()
            return false
        }
    }

    /// No more events; the consumer gets what is queued, then the end.
    func finish() {
        let waiter = state.withLock { s -> CheckedContinuation<SourceEvent?, Never>? in
            s.finished = true
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Whether `finish()` was called.
    var isFinished: Bool { state.withLock { $0.finished } }

    private func next() async -> SourceEvent? {
        await withCheckedContinuation { (continuation: CheckedContinuation<SourceEvent?, Never>) in
            enum Immediate { case event(SourceEvent), end, wait }
            let immediate: Immediate = state.withLock { s in
                if s.head < s.queue.count {
                    let event = s.queue[s.head]
                    s.head += 1
                    if s.head >= 64 && s.head * 2 >= s.queue.count {
                        s.queue.removeFirst(s.head)
                        s.head = 0
                    }
                    return .event(event)
                }
                if s.finished { return .end }
                s.waiter = continuation
                return .wait
            }
            switch immediate {
            case .event(let event):
                room.signal()
                continuation.resume(returning: event)
            case .end:
                continuation.resume(returning: nil)
            case .wait:
                break
            }
        }
    }
}
