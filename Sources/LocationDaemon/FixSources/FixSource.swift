import LocationCore

/// What a fix source reports: its link state, and one fix per receiver epoch.
public enum SourceEvent: Sendable, Hashable {
    /// The link or receiver state changed; `detail` says why, for people
    /// (e.g. "connection refused by 127.0.0.1:2947; retrying in 1.0 s").
    case state(SourceState, detail: String)
    /// One receiver epoch (any mode; always with a time).
    case fix(Fix)
}

/// A producer of fixes: gpsd through libgps, an NMEA serial device, or an
/// NMEA file or FIFO. Reading runs on the source's own thread; the daemon
/// consumes the stream. A source never ends the daemon: it reports trouble as
/// `.state(.connecting, …)` and retries.
public protocol FixSource: AnyObject, Sendable {
    /// Starts reading and returns the stream of events. Called once.
    func start() -> AsyncStream<SourceEvent>
    /// Stops reading. Returns within about 250 ms; the stream then finishes.
    func stop()
}
