import Dispatch
import LocationCore
import Synchronization

/// What a `GPSDSource` and its reader thread share: the stop request and its
/// wakeup, the sink events go to, and the published statistics.
final class GPSDReaderControl: Sendable {
    /// Wakes the reader out of poll(2) when a stop is requested.
    let wakeup: Wakeup
    private let sink: any SourceSink
    private let stopping = Atomic<Bool>(false)
    private let readerDone = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let published = Mutex(GPSDSourceStatistics())

    /// Control over a reader feeding `sink`, with `wakeup` for the reader's waits.
    init(wakeup: Wakeup, sink: any SourceSink) {
        self.wakeup = wakeup
        self.sink = sink
    }

    /// True once a stop has been requested.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// True once the reader thread has finished.
    var hasReaderFinished: Bool { readerDone.load(ordering: .acquiring) }

    /// The statistics the reader last published.
    var statistics: GPSDSourceStatistics { published.withLock { $0 } }

    /// Asks the reader to stop, without waiting.
    func requestStop() {
        stopping.store(true, ordering: .releasing)
        wakeup.signal()
    }

    /// Asks the reader to stop and waits up to `grace` seconds for it; then
    /// finishes the sink whether or not the reader got there (it may be
    /// stuck in connect(2) to an unreachable host and will end on its own).
    func stop(grace: Double) {
        requestStop()
        if !readerDone.load(ordering: .acquiring) {
            _ = finished.wait(timeout: .now() + .nanoseconds(Int(grace * 1e9)))
        }
        sink.finish()
    }

    /// Hands one event to the sink (on the reader thread; it returns once
    /// the event is taken). A sink nobody takes from any more stops the reader.
    func yield(_ event: SourceEvent) {
        if !sink.take(event) { requestStop() }
    }

    /// The reader is about to wait for gpsd: by when it calls this again (`SourceSink.idle`).
    func idle() -> Double? {
        sink.idle()
    }

    /// Replaces the published statistics.
    func publish(_ statistics: GPSDSourceStatistics) {
        published.withLock { $0 = statistics }
    }

    /// Called by the reader as its last act.
    func readerFinished() {
        sink.finish()
        readerDone.store(true, ordering: .releasing)
        finished.signal()
    }
}
