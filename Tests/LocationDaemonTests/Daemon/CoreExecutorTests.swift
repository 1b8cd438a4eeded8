#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
@testable import LocationDaemon
import Synchronization
import Testing

/// The name of the calling thread (`/proc/thread-self/comm`).
private func threadName() -> String {
    let fd = open("/proc/thread-self/comm", O_RDONLY)
    guard fd >= 0 else { return "?" }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 32)
    let count = read(fd, &bytes, bytes.count)
    return String(decoding: bytes.prefix(max(count, 0)).filter { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
}

/// The core thread's timers: what the daemon's ticks are made of, so a tick
/// wakes that one thread and no thread of the cooperative pool.
@Suite struct CoreExecutorTests {
    @Test func aTimerFiresOnTheCoreThreadUntilCancelled() async throws {
        try CoreExecutor.shared.start()
        let fired = Mutex<[String]>([])
        let id = CoreExecutor.shared.addTimer(every: 0.005) { fired.withLock { $0.append(threadName()) } }
        for _ in 0..<1000 where fired.withLock({ $0.count }) < 3 { try await Task.sleep(nanoseconds: 5_000_000) }
        CoreExecutor.shared.cancelTimer(id)
        let names = fired.withLock { $0 }
        #expect(names.count >= 3, "fired \(names.count) times")
        #expect(Set(names) == ["locationd-core"])
        // One firing may have been under way at the cancel; none after it.
        try await Task.sleep(nanoseconds: 20_000_000)
        let settled = fired.withLock { $0.count }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(fired.withLock { $0.count } == settled)
    }

    @Test func anAlarmIsOnlyBroughtForwardAndFiresOnceOnTheCoreThreadWhenDue() async throws {
        try CoreExecutor.shared.start()
        let executor = CoreExecutor.shared
        let fired = Mutex<[String]>([])
        let id = executor.addAlarm { fired.withLock { $0.append(threadName()) } }
        defer { executor.cancelTimer(id) }
        #expect(executor.alarm(id) == .infinity, "made unset: it never fires")
        let far = SystemClock.monotonic() + 3600
        executor.setAlarm(id, dueBy: far)
        #expect(executor.alarm(id) == far)
        executor.setAlarm(id, dueBy: far + 10)
        #expect(executor.alarm(id) == far, "a later time leaves it as it is")
        executor.setAlarm(id, dueBy: .infinity)
        #expect(executor.alarm(id) == far)
        // Brought forward to now: the sleeping thread is woken, fires it, and it is unset again.
        executor.setAlarm(id, dueBy: SystemClock.monotonic())
        for _ in 0..<1000 where fired.withLock({ $0.isEmpty }) { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(fired.withLock { $0 } == ["locationd-core"])
        #expect(executor.alarm(id) == .infinity, "fired once; it waits to be set again")
    }

    @Test func aServiceLoopOverTicksRunsOnTheCoreThread() async throws {
        try CoreExecutor.shared.start()
        let ticks = TickStream(interval: 0.005)
        let names = await withTaskExecutorPreference(CoreExecutor.shared) {
            var names: [String] = []
            for await _ in ticks.ticks {
                names.append(threadName())
                if names.count == 3 { ticks.stop() }
            }
            return names
        }
        #expect(names == Array(repeating: "locationd-core", count: 3))
    }

    @Test func timersOfOneIntervalMadeApartFireInOneWakeup() async throws {
        try CoreExecutor.shared.start()
        let executor = CoreExecutor.shared
        // Each firing records the round it came in.
        let rounds = Mutex<(first: [Int], second: [Int])>(([], []))
        let first = executor.addTimer(every: 0.2) { rounds.withLock { $0.first.append(executor.timerRounds) } }
        usleep(30_000)
        let second = executor.addTimer(every: 0.2) { rounds.withLock { $0.second.append(executor.timerRounds) } }
        for _ in 0..<400 where rounds.withLock({ $0.second.count }) < 3 {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        executor.cancelTimer(first)
        executor.cancelTimer(second)
        let seen = rounds.withLock { $0 }
        // The first may have fired once before the second was made.
        try #require(seen.second.count >= 3)
        #expect(seen.first.suffix(3).count == 3)
        let together = seen.second.prefix(3).filter { seen.first.contains($0) }
        #expect(together.count == 3, "rounds \(seen)")
    }
}
