import LocationCore
import Synchronization

/// Where `status` finds the source's counts (`sourceCounts`), as `BrokerBoard`
/// is where it finds the MQTT publishers: `SourceService` registers the source
/// it starts, and the core asks it when a `status` request comes. The reader
/// thread publishes its counts behind a lock of its own, so nothing per fix
/// comes here. Safe from any thread.
public final class SourceBoard: Sendable {
    private let source = Mutex<(any FixSource)?>(nil)

    /// An empty board.
    public init() {}

    func register(_ source: any FixSource) {
        self.source.withLock { $0 = source }
    }

    /// What the registered source has read so far, if it counts.
    public var counts: SourceCounts? {
        source.withLock { $0 }?.counts
    }
}
