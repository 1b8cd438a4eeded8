#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import CSupport
import Synchronization

/// The one way to wake a thread blocked in poll(2): an eventfd that
/// `signal()` makes readable. Signals that come while one is pending are
/// merged, so a burst costs one write(2).
///
/// * A fix source's reader puts it in its poll sets and never resets it:
///   once signalled (a stop) it stays readable, so stopping is immediate and
///   an idle reader needs no periodic timeouts to notice.
/// * The control server's loop resets it each time it wakes (`reset()`),
///   then looks at what the signalling threads queued.
final class Wakeup: Sendable {
    /// The descriptor to include in poll(2) sets.
    let descriptor: Int32
    private let pending = Atomic<Bool>(false)

    /// A fresh, unsignalled wakeup.
    init() throws(SystemError) {
        descriptor = try retryingEINTR("eventfd") { csupport_wake_fd() }
    }

    deinit {
        // Closed only when nothing can signal it any more, so a late signal
        // never writes to a descriptor number that was reused.
        close(descriptor)
    }

    /// Makes the descriptor readable (safe from any thread; never blocks).
    func signal() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        // EAGAIN (counter at its maximum) still leaves it readable: the wake is not lost.
        _ = withUnsafeBytes(of: &one) { write(descriptor, $0.baseAddress, 8) }
    }

    /// Called by a loop that woke, before it looks at what changed: later
    /// signals write again.
    ///
    /// Drain first, then clear: a signal that comes between the two finds
    /// the flag still set and writes nothing, but what it announces was done
    /// before it, so the loop sees it when it looks next. Clearing first would
    /// let a signal write, have the drain swallow it, and leave the flag set
    /// with nothing to read: every later signal would be lost.
    func reset() {
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { read(descriptor, $0.baseAddress, 8) }
        pending.store(false, ordering: .sequentiallyConsistent)
    }

    /// Sleeps up to `seconds`; true when woken by `signal()` instead.
    func wait(seconds: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let deadline = SystemClock.monotonic() + seconds
        while true {
            let remaining = deadline - SystemClock.monotonic()
            if remaining <= 0 { return false }
            let milliseconds = Int32(min((remaining * 1000).rounded(.up), Double(Int32.max)))
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
    }
}
