#if canImport(Glibc)
import Glibc
#endif

/// Whether a server loop's thread has started, and its handle.
enum ServerThreadState {
    case idle
    case running(pthread_t)
    case stopped
}

extension ServerLoop {
    /// Runs the loop on a thread of its own; `name` says what it is in errors.
    /// Calling it again does nothing.
    func startThread(name: String) throws(SystemError) {
        let body: @Sendable () -> Void = { [self] in run() }
        try thread.withLock { state throws(SystemError) in
            guard case .idle = state else { return }
            state = .running(try ReaderThread.startJoinable(name: name, body))
        }
    }

    /// Asks the loop to close every connection and end, and waits for its
    /// thread. Returns `false` when it was stopped before (nothing done).
    @discardableResult
    func stopThread() -> Bool {
        let previous = thread.withLock { state in
            defer { state = .stopped }
            return state
        }
        switch previous {
        case .stopped:
            return false
        case .idle:
            return true
        case .running(let handle):
            inbox.requestStop()
            waker.wake()
            if pthread_equal(handle, pthread_self()) == 0 {
                pthread_join(handle, nil)
            }
            return true
        }
    }
}
