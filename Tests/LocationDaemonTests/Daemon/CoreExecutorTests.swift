#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
@testable import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// The name of the calling thread (`/proc/thread-self/comm`).
private func threadName() -> String {
    let fd = open("/proc/thread-self/comm", O_RDONLY)
    guard fd >= 0 else { return "?" }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 32)
    let count = read(fd, &bytes, bytes.count)
    return String(decoding: bytes.prefix(max(count, 0)).filter { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
}

/// The core thread's alarms: what the daemon's ticks are made of, so a tick
/// wakes that one thread and no thread of the cooperative pool.
@Suite(.timeLimit(.minutes(10))) struct CoreExecutorTests {
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
        await waitUntil { !fired.withLock { $0.isEmpty } }
        #expect(fired.withLock { $0 } == ["locationd-core"])
        #expect(executor.alarm(id) == .infinity, "fired once; it waits to be set again")
    }

    @Test func aServiceLoopOverTicksRunsOnTheCoreThread() async throws {
        try CoreExecutor.shared.start()
        let ticks = TickStream(alarmOn: .shared)
        ticks.due(by: 0)
        let names = await withTaskExecutorPreference(CoreExecutor.shared) {
            var names: [String] = []
            for await _ in ticks.ticks {
                names.append(threadName())
                // A fired alarm is unset: each tick sets the next, as the services' loops do.
                if names.count == 3 { ticks.stop() } else { ticks.due(by: 0) }
            }
            return names
        }
        #expect(names == Array(repeating: "locationd-core", count: 3))
    }
}
