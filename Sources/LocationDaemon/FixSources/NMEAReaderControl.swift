import LocationCore
import LocationProtocol
import LocationSystem
import Synchronization

/// What the reading thread and `NMEADeviceSource.stop()` share: the stop
/// request and the `Wakeup` that interrupts the reader's poll(2) at once.
final class NMEAReaderControl: Sendable {
    private let stopped = Atomic<Bool>(false)
    /// What the reader has read so far (`status`), published by it when it changes.
    private let published = Mutex(SourceCounts())
    /// Signalled once, by `requestStop()`, and never cleared.
    let wakeup: Wakeup

    init() throws(SystemError) {
        wakeup = try Wakeup()
    }

    /// The reader's counts as it last published them.
    var counts: SourceCounts { published.withLock { $0 } }

    /// The reader thread's new counts.
    func publish(_ counts: SourceCounts) {
        published.withLock { $0 = counts }
    }

    /// Whether stop was requested.
    var isStopping: Bool { stopped.load(ordering: .acquiring) }

    /// Asks the reader to stop and wakes it.
    func requestStop() {
        stopped.store(true, ordering: .releasing)
        wakeup.signal()
    }
}
