import Synchronization

/// At most `limit` gpsfake runs at once in this test process. Swift Testing
/// runs suites in parallel; a dozen gpsfake + gpsd pairs (Python replaying at
/// millisecond cycles) starting together on a two-core machine starve
/// everything else. A `GPSFake` holds its slot from `start` until `stop`.
public final class GPSFakeSlots: Sendable {
    /// The process-wide slots.
    public static let shared = GPSFakeSlots(limit: 3)

    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    private init(limit: Int) { state = Mutex(State(free: limit)) }

    /// Waits (without holding a thread) for a free slot.
    public func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Hands the slot to the next waiter, or frees it.
    public func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` holding a slot: for a gpsfake run that `GPSFake` does not
    /// manage (`gpsfake -p` as a pipe, say).
    public func withSlot<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}
