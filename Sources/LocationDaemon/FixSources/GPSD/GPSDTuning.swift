import LocationCodecs
import LocationCore

/// The timing of a `GPSDSource`. The defaults are what the daemon uses;
/// tests shorten some of them.
struct GPSDTuning: Sendable, Hashable {
    /// Reconnect delays.
    var backoff = ReconnectBackoff.Policy()
    /// Epoch assembly.
    var epochs = GPSDEpochAssembler.Tuning()
    /// Seconds after connecting within which gpsd must confirm the watch.
    var handshakeTimeout: Double = 5
    /// Seconds of silence from gpsd after which the watch is renewed as a probe.
    var probeAfter: Double = 10
    /// Seconds gpsd has to answer that probe before the connection counts as dead.
    var probeTimeout: Double = 5
    /// How long `stop()` waits for the reader thread to finish, seconds.
    var stopGrace: Double = 0.2
}
