import LocationSystem
/// Whether a server loop's thread has started, and its handle.
enum ServerThreadState {
    case idle
    case running(DaemonThread.Handle)
    case stopped
}

extension ServerLoop {
    /// Runs the loop on a thread of its own named `name` (`control`, `programs`).
    /// Calling it again does nothing.
    func startThread(name: String) throws(SystemError) {
        let body: @Sendable () -> Void = { [self] in run() }
        try thread.withLock { state throws(SystemError) in
            guard case .idle = state else { return }
            state = .running(try DaemonThread.start(name: name, detached: false, body))
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
            waker.signal()
            if !handle.isCurrent { handle.join() }
            return true
        }
    }
}
