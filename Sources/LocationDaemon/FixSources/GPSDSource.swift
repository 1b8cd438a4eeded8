import LocationCore
import LocationProtocol
import Synchronization

/// Fixes from gpsd, read through libgps (the CGPS shim) on a thread of its own.
///
/// The sink gets `.state` on every change of link or receiver state
/// (connecting, connected, no fix, fix) and `.fix` once per receiver epoch,
/// whatever its mode, always with a time. When gpsd is down, restarts, or
/// drops its clients, the source says so and reconnects with capped
/// exponential backoff (first retry after 125 ms, then at most every 5 s);
/// it never ends on its own. While its sink `wantsRawBytes` it also keeps one
/// raw connection per receiver gpsd lists (`GPSDRawLinks`), whose bytes go to
/// the sink as `.raw`. See docs/sources.md.
public final class GPSDSource: FixSource {
    /// gpsd's host name or address.
    public let host: String
    /// gpsd's TCP port.
    public let port: Int
    private let tuning: GPSDTuning
    private let phase = Mutex<Phase>(.idle)

    private enum Phase {
        case idle
        case running(GPSDReaderControl)
        case stopped(GPSDReaderControl?)
    }

    /// A source for gpsd at `host:port` (gpsd's default is 127.0.0.1:2947).
    /// Nothing happens until `start()`.
    public convenience init(host: String, port: Int) {
        self.init(host: host, port: port, tuning: GPSDTuning())
    }

    /// A source with non-default timing (tests).
    init(host: String, port: Int, tuning: GPSDTuning) {
        self.host = host
        self.port = port
        self.tuning = tuning
    }

    deinit {
        if case .running(let control) = phase.withLock({ $0 }) {
            control.requestStop()
        }
    }

    /// Starts the reader thread, which hands its events to `sink`. A second
    /// call, or a call after `stop()`, finishes `sink` at once.
    public func start(into sink: any SourceSink) {
        let wakeup: Wakeup
        do {
            wakeup = try Wakeup()
        } catch {
            let message = "cannot start the gpsd reader: \(error)"
            Diagnostics.gpsd.error("\(message)")
            _ = sink.take(.state(.connecting, detail: message))
            sink.finish()
            return
        }
        let control = GPSDReaderControl(wakeup: wakeup, sink: sink, raw: GPSDRawLinks(host: host, port: port))
        let accepted = phase.withLock { phase -> Bool in
            guard case .idle = phase else { return false }
            phase = .running(control)
            return true
        }
        guard accepted else {
            sink.finish()
            return
        }
        // Nobody is listening any more: the reader has nothing left to do.
        sink.whenConsumerGone { [weak control] in control?.requestStop() }
        let host = host, port = port, tuning = tuning
        do {
            try DaemonThread.start(name: "gpsd-reader") {
                var reader = GPSDReader(control: control, host: host, port: port, tuning: tuning)
                reader.run()
            }
        } catch {
            let message = "cannot start the gpsd reader: \(error)"
            Diagnostics.gpsd.error("\(message)")
            control.yield(.state(.connecting, detail: message))
            control.readerFinished()
        }
    }

    /// Stops reading. Returns within about 250 ms, after which the sink
    /// has been finished.
    public func stop() {
        let control = phase.withLock { phase -> GPSDReaderControl? in
            switch phase {
            case .idle:
                phase = .stopped(nil)
                return nil
            case .running(let control):
                phase = .stopped(control)
                return control
            case .stopped:
                return nil
            }
        }
        control?.stop(grace: tuning.stopGrace)
    }

    /// Counters of what the source has done, as of the reader's last pass.
    public var statistics: GPSDSourceStatistics {
        control?.statistics ?? GPSDSourceStatistics()
    }

    /// `statistics` as `status` says them (`sourceCounts`).
    public var counts: SourceCounts? { statistics.counts }

    /// True once the reader thread has ended (false before `start()`).
    var hasReaderFinished: Bool {
        control?.hasReaderFinished ?? false
    }

    /// The receivers whose raw connection (`raw_log`) gpsd confirmed and that are open now.
    var rawCaptureDevices: Set<String> {
        control?.raw.streamingDevices ?? []
    }

    /// Whether the raw thread (`gpsd-raw`) runs, and how many it started so far.
    var rawThread: (running: Bool, started: Int) {
        guard let raw = control?.raw else { return (false, 0) }
        return (raw.isRunning, raw.threadsStarted)
    }

    private var control: GPSDReaderControl? {
        phase.withLock { phase in
            switch phase {
            case .idle: nil
            case .running(let control): control
            case .stopped(let control): control
            }
        }
    }
}
