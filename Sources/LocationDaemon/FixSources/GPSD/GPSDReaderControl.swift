import Dispatch
import LocationCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What a `GPSDSource` and its reader thread share: the stop request and its
/// wakeup, the socket of the open session, the sink events go to, the raw
/// connections, and the published statistics.
final class GPSDReaderControl: Sendable {
    /// Wakes the reader out of its wait between attempts when a stop is requested.
    let wakeup: Wakeup
    /// The raw connections a `raw_log` asks for (none without one), which a stop closes too.
    let raw: GPSDRawLinks
    /// The open session's socket (-1: none). The reader waits in recv(2) on it, which no
    /// wakeup descriptor can end: a stop shuts it down instead. Lent and taken back under
    /// this lock, so a stop never shuts down a descriptor after the session closed it.
    private let socket = Mutex<Int32>(-1)
    private let sink: any SourceSink
    private let stopping = Atomic<Bool>(false)
    private let readerDone = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let published = Mutex(GPSDSourceStatistics())

    /// Control over a reader feeding `sink`, with `wakeup` for the reader's waits and `raw` for its
    /// raw connections.
    init(wakeup: Wakeup, sink: any SourceSink, raw: GPSDRawLinks) {
        self.wakeup = wakeup
        self.sink = sink
        self.raw = raw
    }

    /// True once a stop has been requested.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// True once the reader thread has finished.
    var hasReaderFinished: Bool { readerDone.load(ordering: .acquiring) }

    /// The statistics the reader last published.
    var statistics: GPSDSourceStatistics { published.withLock { $0 } }

    /// Asks the reader (and the raw thread) to stop, without waiting.
    func requestStop() {
        stopping.store(true, ordering: .releasing)
        wakeup.signal()
        raw.requestStop()
        socket.withLock { descriptor in
            if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// The session opened `descriptor`: a stop from now on shuts it down. (A stop requested
    /// before this is seen by the reader's own look at `isStopping` after opening.)
    func lend(socket descriptor: Int32) {
        socket.withLock { $0 = descriptor }
    }

    /// The session is about to close its socket.
    func takeBackSocket() {
        socket.withLock { $0 = -1 }
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

    /// Hands one event to the sink (on the reader thread, or `.raw` on the raw thread; it returns
    /// once the event is taken). A sink nobody takes from any more stops the reader.
    func yield(_ event: SourceEvent) {
        if !sink.take(event) { requestStop() }
    }

    /// The reader (or the raw thread) is about to wait: by when it calls this again (`SourceSink.idle`).
    func idle() -> Double? {
        sink.idle()
    }

    /// Whether the sink wants the receivers' raw bytes (a client has a `raw_log`): one atomic load.
    var wantsRawBytes: Bool { sink.wantsRawBytes }

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
