#if canImport(Glibc)
import Glibc
#endif

/// A one-shot wakeup for a thread blocked in poll(2): a pipe that, once
/// written, stays readable (nobody reads it). Both fix-source readers (gpsd
/// and NMEA) include it in their poll sets, so stopping one is immediate and
/// an idle reader needs no periodic timeouts to notice a stop.
final class Wakeup: Sendable {
    /// The descriptor to include in poll(2) sets (the pipe's read end).
    let descriptor: Int32
    private let writeEnd: Int32

    /// A fresh, unsignalled wakeup.
    init() throws(SystemError) {
        // Non-blocking, so signal() can never stall however often it is called.
        (descriptor, writeEnd) = try DescriptorIO.makePipe("a reader's wakeup")
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Makes the descriptor readable (idempotent; safe from any thread).
    func signal() {
        var byte: UInt8 = 1
        // EAGAIN means the pipe is full: readable already, which is all we need.
        _ = write(writeEnd, &byte, 1)
    }

    /// Sleeps up to `seconds`; true when woken by `signal` instead.
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
