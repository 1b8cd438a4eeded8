import LocationCore
import LocationProtocol

/// What a `GPSDSource` has done so far, for `status` (as `counts`) and benchmarks.
public struct GPSDSourceStatistics: Sendable, Hashable {
    /// Connection attempts, successful or not.
    public var connectionAttempts = 0
    /// Sessions in which gpsd confirmed the watch.
    public var connections = 0
    /// JSON reports read from gpsd (every class).
    public var reports = 0
    /// Lines left unread because libgps could hang on them (see `GPSDReport.unreadable`).
    public var unreadableReports = 0
    /// TPV reports among them.
    public var tpvReports = 0
    /// TPVs without a time: never delivered as fixes.
    public var timelessReports = 0
    /// TPVs for an epoch already delivered: dropped.
    public var lateReports = 0
    /// Epochs delivered as fixes.
    public var epochs = 0
    /// Epochs delivered as soon as they were complete, rather than when the
    /// next epoch began or gpsd fell quiet.
    public var earlyEpochs = 0

    /// All zero.
    public init() {}
}

extension GPSDSourceStatistics {
    /// What `status` says of them (`sourceCounts`).
    var counts: SourceCounts {
        SourceCounts(
            attempts: connectionAttempts, connections: connections, lines: reports, unreadable: unreadableReports,
            fixes: epochs, timeless: timelessReports, late: lateReports)
    }
}
