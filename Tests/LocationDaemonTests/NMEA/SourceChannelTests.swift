import LocationCore
@testable import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// The bounded queue between a reading thread and an async consumer.
@Suite struct SourceChannelTests {
    private func event(_ n: Int) -> SourceEvent { .state(.connected, detail: "\(n)") }

    @Test func aFullQueueHoldsTheReaderUntilTheConsumerCatchesUp() async {
        let channel = SourceChannel(capacity: 2)
        let sent = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        // The reader blocks in send(): a thread of its own, as in the source.
        DedicatedThread.run {
            for n in 0..<6 {
                guard channel.send(event(n), keepGoing: { true }) else { break }
                sent.add(1, ordering: .relaxed)
            }
            channel.finish()
            done.store(true, ordering: .releasing)
        }
        // With nobody reading, the reader stops after filling the queue…
        #expect(await waitUntil { sent.load(ordering: .relaxed) >= 2 })
        // …and stays stopped.
        await pause(0.2)
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
        DedicatedThread.run {
            result.store(channel.send(event(1), keepGoing: { true }) ? 1 : 0, ordering: .releasing)
        }
        // Give the reader a moment to block on the full queue (if it has not
        // yet, send sees the channel finished and fails all the same).
        await pause(0.1)
        channel.finish()
        #expect(await waitUntil { result.load(ordering: .acquiring) != -1 })
        #expect(result.load(ordering: .acquiring) == 0)
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
        let consumer = Task { for await _ in stream {} }
        await pause(0.05)
        consumer.cancel()
        await consumer.value
        #expect(channel.isFinished)
        #expect(!channel.send(event(0), keepGoing: { true }))
    }
}
