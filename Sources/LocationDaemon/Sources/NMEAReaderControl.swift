#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// What the reading thread and `NMEADeviceSource.stop()` share: the stop
/// request and a pipe that wakes the reader's `poll(2)` at once.
final class NMEAReaderControl: Sendable {
    private let stopped = Atomic<Bool>(false)
    let wakeRead: Int32
    let wakeWrite: Int32

    init() throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        try retryingEINTR("pipe") { pipe(&fds) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Whether stop was requested.
    var isStopping: Bool { stopped.load(ordering: .acquiring) }

    /// Asks the reader to stop and wakes it.
    func requestStop() {
        stopped.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }
}
