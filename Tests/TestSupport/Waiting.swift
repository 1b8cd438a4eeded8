// Waiting without holding a thread. Every deadline here is a correctness
// bound sized for a slow, loaded machine: a wait returns as soon as its
// condition holds, so a fast machine never waits it out and a slow one is
// slower, not red. Polls start 2 ms apart and back off to `every`, so a
// quick condition is seen at once and a long wait costs little CPU.

/// Sleeps `seconds` without holding a thread. Returns false (at once) if the
/// task is cancelled, so a polling loop does not spin.
@discardableResult
public func pause(_ seconds: Double) async -> Bool {
    do {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
        return true
    } catch {
        return false
    }
}

/// The gaps between polls: from 2 ms, doubling up to `limit`.
private struct PollInterval {
    var next = 0.002
    let limit: Double

    mutating func take() -> Double {
        defer { next = min(next * 2, limit) }
        return min(next, limit)
    }
}

/// Checks `condition` (at most `every` seconds apart) until it holds or
/// `timeout` seconds pass; returns whether it held (checked once more at the
/// deadline).
@discardableResult
public func waitUntil(timeout: Double = 60, every interval: Double = 0.05, _ condition: () throws -> Bool)
    async rethrows -> Bool
{
    let deadline = monotonicNow() + timeout
    var gaps = PollInterval(limit: interval)
    while true {
        if try condition() { return true }
        if monotonicNow() >= deadline { return try condition() }
        if await !pause(gaps.take()) { return try condition() }
    }
}

/// `waitUntil` for a condition that must await.
@discardableResult
public func waitUntilAsync(timeout: Double = 60, every interval: Double = 0.05, _ condition: () async throws -> Bool)
    async rethrows -> Bool
{
    let deadline = monotonicNow() + timeout
    var gaps = PollInterval(limit: interval)
    while true {
        if try await condition() { return true }
        if monotonicNow() >= deadline { return try await condition() }
        if await !pause(gaps.take()) { return try await condition() }
    }
}

/// Asks `produce` (at most `every` seconds apart) until it gives a value or
/// `timeout` seconds pass (then `nil`).
public func eventualValue<T>(timeout: Double = 60, every interval: Double = 0.01, _ produce: () throws -> T?)
    async rethrows -> T?
{
    let deadline = monotonicNow() + timeout
    var gaps = PollInterval(limit: interval)
    while true {
        if let value = try produce() { return value }
        if monotonicNow() >= deadline { return try produce() }
        if await !pause(gaps.take()) { return try produce() }
    }
}
