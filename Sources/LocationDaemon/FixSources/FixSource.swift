import LocationCore
import LocationProtocol
import LocationValues

/// What a fix source reports: its link state, and one fix per receiver epoch.
public enum SourceEvent: Sendable, Hashable {
    /// The link or receiver state changed; `detail` says why, for people
    /// (e.g. "connection refused by 127.0.0.1:2947; retrying in 1.0 s").
    case state(SourceState, detail: String)
    /// One receiver epoch (any mode; always with a time).
    case fix(Fix)
    /// What the receiver says about its sky (satellites used and seen, DOPs),
    /// as it reports it, beside the fixes (gpsd's SKY; NMEA's GSA and GSV).
    case sky(SkyView)
    /// The source's outage as it stands, before each wait for the next attempt (gpsd not
    /// connected, an NMEA device that cannot be opened or went away); `nil` once it is
    /// connected again. For `status` only.
    case outage(SourceOutage?)
    /// Bytes exactly as receiver `device` sent them, received at `time` (UTC seconds, the
    /// system clock), for the clients' raw captures (`raw_log`); sent only while the sink
    /// `wantsRawBytes`.
    case raw(device: String, bytes: [UInt8], time: Double)
}

/// The one hand-off from a source's reader thread to whoever consumes its
/// events, the same for every source. `take` is called on the reader
/// thread, in order, and returns once the event is taken (a gpsd source with
/// raw capture on also calls `take` and `idle` from its raw thread, for
/// `.raw` only: a sink that wants raw bytes takes from two threads; the daemon's core
/// serialises them behind its lock): the daemon's core
/// carries it out right there (engine, log line, watchers), an
/// `AsyncStream` consumer (`FixSource.start()`) gets it through a bounded
/// `SourceChannel`.
///
/// Overflow policy, for every source and consumer: nothing is dropped in
/// the daemon; a reader whose consumer is busy waits, and meanwhile what
/// arrives waits in the kernel (gpsd's socket, the tty's buffer), as with
/// any reader that falls behind.
public protocol SourceSink: Sendable {
    /// Takes one event; false when nobody takes events any more (the reader then stops).
    func take(_ event: SourceEvent) -> Bool
    /// No more events (the reader ended, or the source was stopped). Idempotent.
    func finish()
    /// The reader has taken everything that was there and is about to wait
    /// for more: the daemon writes the log lines it batched meanwhile. Returns
    /// the monotonic time by which the reader calls `idle()` again if nothing
    /// comes before (a line it wrote waits for its sync, or the 5 s without a
    /// usable fix or a pinned receiver's failover run out), or nil: the reader carries that deadline in its
    /// own wait, which a next line usually beats, so the core thread is not
    /// woken for it. A reader that handed nothing over since its last call
    /// may skip it until that time comes: nothing is batched then, and
    /// nothing else is due (the gpsd reader does, after the wake-up for an
    /// epoch's GST).
    func idle() -> Double?
    /// How to stop the reader should the consumer go away first (called
    /// once by the source as it starts). A sink whose consumer never goes
    /// away may ignore it.
    func whenConsumerGone(_ stop: @escaping @Sendable () -> Void)
    /// Whether the reader hands on the bytes it reads (`SourceEvent.raw`): a client has a
    /// `raw_log`. Asked at every read (an atomic load).
    var wantsRawBytes: Bool { get }
}

extension SourceSink {
    /// The consumer never goes away on its own.
    public func whenConsumerGone(_ stop: @escaping @Sendable () -> Void) {}
    /// Nothing to do between bursts.
    public func idle() -> Double? { nil }
    /// No raw capture.
    public var wantsRawBytes: Bool { false }
}

/// A producer of fixes: gpsd through libgps, an NMEA serial device, or an
/// NMEA file or FIFO. Reading runs on the source's own thread, which hands
/// every event to a `SourceSink`. A source never ends the daemon: it reports
/// trouble as `.state(.connecting, …)` and retries.
public protocol FixSource: AnyObject, Sendable {
    /// Starts reading into `sink`. Called once; a second call finishes its sink at once.
    func start(into sink: any SourceSink)
    /// Stops reading. Returns within about 250 ms; the sink has then been finished.
    func stop()
    /// What it has read since it started (lines, unreadable ones, fixes, drops by reason),
    /// as its reader last published it; `nil` if it does not count (test doubles).
    var counts: SourceCounts? { get }
}

extension FixSource {
    /// Not counted.
    public var counts: SourceCounts? { nil }

    /// Starts reading and returns the events as a stream (through a
    /// `SourceChannel`); cancelling its iteration stops the reader.
    public func start() -> AsyncStream<SourceEvent> {
        let channel = SourceChannel(capacity: SourceChannel.defaultCapacity)
        let stream = channel.stream()
        start(into: channel)
        return stream
    }
}
