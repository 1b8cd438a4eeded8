import LocationCore
import LocationProtocol
import Synchronization

/// Where `status` finds each source's counts (`sources[].counts`, and the first source's as
/// `sourceCounts`), as a face's board is where it finds that face's peers: each
/// `SourceService` registers the source it starts under its index in the configuration, and the
/// core asks when a `status` request comes. The reader threads publish their counts behind
/// locks of their own, so nothing per fix comes here. Safe from any thread.
public final class SourceBoard: Sendable {
    private let sources = Mutex<[Int: any FixSource]>([:])
    private let raw = Atomic<Bool>(false)

    /// Whether a client has a `raw_log`: the readers then hand on the bytes they read
    /// (`SourceSink.wantsRawBytes`). Set by the core at start and at each reload.
    public var capturesRaw: Bool {
        get { raw.load(ordering: .relaxed) }
        set { raw.store(newValue, ordering: .relaxed) }
    }

    /// An empty board.
    public init() {}

    func register(_ source: any FixSource, at index: Int = 0) {
        sources.withLock { $0[index] = source }
    }

    /// What the first source has read so far, if it counts.
    public var counts: SourceCounts? { counts(at: 0) }

    /// What source `index` (config order) has read so far, if it counts.
    public func counts(at index: Int) -> SourceCounts? {
        sources.withLock { $0[index] }?.counts
    }
}
