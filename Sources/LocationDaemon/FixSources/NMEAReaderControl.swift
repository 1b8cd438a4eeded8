import LocationSystem
import Synchronization

/// What the reading thread and `NMEADeviceSource.stop()` share: the stop
/// request and the `Wakeup` that interrupts the reader's poll(2) at once.
final class NMEAReaderControl: Sendable {
    private let stopped = Atomic<Bool>(false)
    /// Signalled once, by `requestStop()`, and never cleared.
    let wakeup: Wakeup

    init() throws(SystemError) {
        wakeup = try Wakeup()
    }

    /// Whether stop was requested.
    var isStopping: Bool { stopped.load(ordering: .acquiring) }

    /// Asks the reader to stop and wakes it.
    func requestStop() {
        stopped.store(true, ordering: .releasing)
        wakeup.signal()
    }
}
