import Synchronization

/// A gate a test opens once: everything awaiting `wait()` goes on then, and
/// a `wait()` after the opening returns at once. Holds no thread while shut.
public final class Gate: Sendable {
    private struct State {
        var open = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether it has been opened.
    public var isOpen: Bool { state.withLock { $0.open } }

    /// Opens it (again: nothing).
    public func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once the gate is open.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
