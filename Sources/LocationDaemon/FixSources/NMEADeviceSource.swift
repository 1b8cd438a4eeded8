#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import LocationCore
import LocationProtocol
import Synchronization

/// Fixes straight from an NMEA receiver: a serial device (set raw at `baud`),
/// a FIFO, or a plain file, read on a thread of its own.
///
/// * A device that disappears (unplugged, hung up, read error) is reported as
///   `.connecting` and opened again with capped backoff (0.25 s, doubling to
///   5 s) until it is back.
/// * A FIFO is opened again whenever its writer closes it.
/// * A plain file is read to its end, reported as `.endOfFile` ("at end of
///   file, following it": no outage), then followed like `tail -F` (more data is read when it grows; a
///   replaced file is reopened).
/// * The epoch in progress is emitted after 0.2 s of silence, so the last
///   epoch before a pause is not held back.
///
/// `docs/nmea.md` describes the events in detail.
public final class NMEADeviceSource: FixSource {
    private let path: String
    private let baud: Int
    private let timing: NMEAReader.Timing
    private let running = Mutex<Running?>(nil)

    private struct Running: Sendable {
        let control: NMEAReaderControl
        let sink: any SourceSink
        let finished: DispatchSemaphore
    }

    /// A source for `path`: a tty read raw at `baud`, or a plain file / FIFO read as is.
    public init(path: String, baud: Int) {
        self.path = path
        self.baud = baud
        self.timing = NMEAReader.Timing()
    }

    /// Starts the reading thread, which hands its events to `sink`. Called
    /// once; a second call finishes its `sink` at once.
    public func start(into sink: any SourceSink) {
        let finished = DispatchSemaphore(value: 0)
        let control: NMEAReaderControl
        do {
            control = try NMEAReaderControl()
        } catch {
            _ = sink.take(.state(.connecting, detail: "cannot start reading \(path): \(error)"))
            sink.finish()
            return
        }
        let alreadyStarted = running.withLock { current -> Bool in
            if current != nil { return true }
            current = Running(control: control, sink: sink, finished: finished)
            return false
        }
        if alreadyStarted {
            sink.finish()
            return
        }
        // Nobody is listening any more: the reader has nothing left to do.
        sink.whenConsumerGone { [weak control] in control?.requestStop() }
        let (path, baud, timing) = (self.path, self.baud, self.timing)
        do {
            try DaemonThread.start(name: "nmea-reader") {
                // The reader lives and dies on this thread.
                NMEAReader(path: path, baud: baud, sink: sink, control: control, timing: timing).run()
                finished.signal()
            }
        } catch {
            _ = sink.take(.state(.connecting, detail: "cannot start a thread to read \(path): \(error)"))
            sink.finish()
            finished.signal()
        }
    }

    /// What the reader has read since the start (`status`'s `sourceCounts`); zero before `start`.
    public var counts: SourceCounts? {
        running.withLock { $0 }?.control.counts ?? SourceCounts()
    }

    /// Stops reading; returns once the thread has closed the input (within
    /// about 250 ms), after which the sink has been finished.
    public func stop() {
        guard let current = running.withLock({ $0 }) else { return }
        current.control.requestStop()
        if current.finished.wait(timeout: .now() + .milliseconds(250)) == .success {
            current.finished.signal()  // let a second stop() return at once too
        }
        // A reader still waiting for a busy consumer gives up now.
        current.sink.finish()
    }
}
