import Foundation
import LocationCore
@testable import LocationDaemon
import Synchronization
import Testing

/// The bounded queue between a reading thread and the daemon.
@Suite struct NMEASourceChannelTests {
    private func event(_ n: Int) -> SourceEvent { .state(.connected, detail: "\(n)") }

    @Test func aFullQueueHoldsTheReaderUntilTheConsumerCatchesUp() async {
        let channel = NMEASourceChannel(capacity: 2)
        let sent = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let producer = Thread {
            for n in 0..<6 {
                guard channel.send(event(n), keepGoing: { true }) else { break }
                sent.add(1, ordering: .relaxed)
            }
            channel.finish()
            done.signal()
        }
        producer.start()
        // With nobody reading, the reader stops after filling the queue.
        var waited = 0
        while sent.load(ordering: .relaxed) < 2 && waited < 500 {
            try? await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        try? await Task.sleep(for: .milliseconds(200))
        #expect(sent.load(ordering: .relaxed) == 2)
        var received: [SourceEvent] = []
        for await e in channel.stream() { received.append(e) }
        #expect(received == (0..<6).map(event))
        #expect(done.wait(timeout: .now() + 5) == .success)
    }

    @Test func finishingWakesABlockedReader() {
        let channel = NMEASourceChannel(capacity: 1)
        #expect(channel.send(event(0), keepGoing: { true }))
        let result = Atomic<Int>(-1)
        let done = DispatchSemaphore(value: 0)
        let producer = Thread {
            result.store(channel.send(event(1), keepGoing: { true }) ? 1 : 0, ordering: .relaxed)
            done.signal()
        }
        producer.start()
        Thread.sleep(forTimeInterval: 0.1)
        channel.finish()
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(result.load(ordering: .relaxed) == 0)
    }

    @Test func aChannelFreedWithEventsQueuedDoesNotTrap() {
        // libdispatch traps when a semaphore is freed below its initial value;
        // the channel must be safe to drop in any state.
        for queued in 0...3 {
            var channel: NMEASourceChannel? = NMEASourceChannel(capacity: 2)
            for n in 0..<queued { _ = channel?.send(event(n), keepGoing: { false }) }
            channel = nil
            #expect(channel == nil)
        }
    }

    @Test func cancellingTheConsumerFinishesTheChannel() async {
        let channel = NMEASourceChannel(capacity: 4)
        let stream = channel.stream()
        let consumer = Task { for await _ in stream {} }
        try? await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        await consumer.value
        #expect(channel.isFinished)
        #expect(!channel.send(event(0), keepGoing: { true }))
    }
}
