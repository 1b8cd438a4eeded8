import Synchronization

/// Remembers that something is failing, so a repeated failure is reported
/// once until it works again.
public final class FailureLatch: Sendable {
    private let failing = Mutex(false)

    /// A latch that is not set.
    public init() {}

    /// Marks a failure; true if this is the first since the last `clear()` (report it).
    public func set() -> Bool {
        failing.withLock { failing in
            defer { failing = true }
            return !failing
        }
    }

    /// Marks a success; true if a failure was set (report the recovery).
    @discardableResult
    public func clear() -> Bool {
        failing.withLock { failing in
            defer { failing = false }
            return failing
        }
    }
}
