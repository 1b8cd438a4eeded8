#if canImport(Glibc)
import Glibc
#endif
import LocationCore
@testable import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// The bounded queue between a reading thread and an async consumer.
@Suite(.timeLimit(.minutes(10))) struct SourceChannelTests {
    private func event(_ n: Int) -> SourceEvent { .state(.connected, detail: "\(n)") }

    @Test func aFullQueueHoldsTheReaderUntilTheConsumerCatchesUp() async {
        let channel = SourceChannel(capacity: 2)
        let sent = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let reader = Atomic<pid_t>(0)
        // The reader blocks in send(): a thread of its own, as in the source.
        DedicatedThread.run {
            reader.store(ProcFS.currentThreadID(), ordering: .releasing)
            for n in 0..<6 {
                guard channel.send(event(n), keepGoing: { true }) else { break }
                sent.add(1, ordering: .relaxed)
            }
            channel.finish()
            done.store(true, ordering: .releasing)
        }
        // With nobody reading, the reader stops after filling the queue: its thread asleep in
        // futex(2) (the semaphore), as /proc says; one that did not stop would have sent all six
        // and ended.
        #expect(await waitUntil { sent.load(ordering: .relaxed) >= 2 })
        #expect(await waitUntil { Self.blocked(reader) })
        #expect(sent.load(ordering: .relaxed) == 2)
        var received: [SourceEvent] = []
        for await e in channel.stream() { received.append(e) }
        #expect(received == (0..<6).map(event))
        #expect(await waitUntil { done.load(ordering: .acquiring) })
    }

    @Test func finishingWakesABlockedReader() async {
        let channel = SourceChannel(capacity: 1)
        #expect(channel.send(event(0), keepGoing: { true }))
        let result = Atomic<Int>(-1)
        let reader = Atomic<pid_t>(0)
        DedicatedThread.run {
            reader.store(ProcFS.currentThreadID(), ordering: .releasing)
            result.store(channel.send(event(1), keepGoing: { true }) ? 1 : 0, ordering: .releasing)
        }
        // The reader is blocked on the full queue (asleep in futex(2)) when the channel finishes.
        #expect(await waitUntil { Self.blocked(reader) })
        #expect(result.load(ordering: .acquiring) == -1)
        channel.finish()
        #expect(await waitUntil { result.load(ordering: .acquiring) != -1 })
        #expect(result.load(ordering: .acquiring) == 0)
    }

    /// Whether the thread whose id `reader` holds (once it has stored it) sleeps in futex(2).
    private static func blocked(_ reader: borrowing Atomic<pid_t>) -> Bool {
        let tid = reader.load(ordering: .acquiring)
        return tid != 0 && ProcFS.isWaiting(thread: tid, in: ProcFS.futexSyscalls)
    }

    @Test func aChannelFreedWithEventsQueuedDoesNotTrap() {
        // libdispatch traps when a semaphore is freed below its initial value;
        // the channel must be safe to drop in any state.
        for queued in 0...3 {
            var channel: SourceChannel? = SourceChannel(capacity: 2)
            for n in 0..<queued { _ = channel?.send(event(n), keepGoing: { false }) }
            channel = nil
            #expect(channel == nil)
        }
    }

    @Test func cancellingTheConsumerFinishesTheChannel() async {
        let channel = SourceChannel(capacity: 4)
        let stream = channel.stream()
        // The consumer waits for an event (its executor quiet: suspended in the stream) when cancelled.
        let executor = QuietExecutor()
        let consumer = Task(executorPreference: executor) { for await _ in stream {} }
        #expect(await waitUntil { executor.isQuiet })
        consumer.cancel()
        await consumer.value
        #expect(channel.isFinished)
        #expect(!channel.send(event(0), keepGoing: { true }))
    }
}
