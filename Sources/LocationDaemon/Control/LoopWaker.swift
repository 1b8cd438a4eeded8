#if canImport(Glibc)
import Glibc
#endif
import CSupport
import Synchronization

/// Wakes the control server's poll loop from other threads (a handler task
/// that queued a reply or an event line) through an eventfd. Wakes that come
/// while one is pending are merged, so a burst of events costs one write.
final class LoopWaker: Sendable {
    /// The eventfd the loop polls for reading.
    let fd: Int32
    private let pending = Atomic<Bool>(false)

    init() throws(SystemError) {
        fd = try retryingEINTR("eventfd") { csupport_wake_fd() }
    }

    deinit {
        // Closed only when nothing can wake it any more, so a late wake never
        // writes to a descriptor number that was reused.
        close(fd)
    }

    /// Makes the loop's next (or current) `poll` return.
    func wake() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        // EAGAIN (counter at its maximum) still leaves the fd readable: the wake is not lost.
        _ = withUnsafeBytes(of: &one) { write(fd, $0.baseAddress, 8) }
    }

    /// Called by the loop when the eventfd is readable, before it looks at
    /// what changed: later wakes write again.
    ///
    /// Drain first, then clear: a wake that comes between the two finds the
    /// flag still set and writes nothing, but what it announces was done
    /// before it, so the loop sees it when it looks next. Clearing first would
    /// let a wake write, have the drain swallow it, and leave the flag set
    /// with nothing to read: every later wake would be lost.
    func reset() {
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { read(fd, $0.baseAddress, 8) }
        pending.store(false, ordering: .sequentiallyConsistent)
    }
}
