import LocationConfig
import LocationCore
import Synchronization

/// Runs one configured fix source with the core as its `SourceSink`: the
/// reader thread carries every event into the core itself (engine, log
/// line, watchers), tagged with the source's index in the configuration
/// (one service, one reader thread, per source), so nothing per fix runs here. The source is started when
/// the service is made (its reader connects while the rest starts), so
/// READY=1 can follow it; `run()` only waits for the source to end.
public final class SourceService: Service {
    /// `source`, or `source NAME` for a `[source.NAME]`.
    public let name: String
    /// The source.
    public let source: any FixSource
    private let feed: CoreFeed

    /// Starts `source`, whose events go to `core` as those of its source number `index` (config
    /// order), called `named` (`nil` or `default` for `[source]`).
    public init(source: any FixSource, core: DaemonCore, index: Int = 0, named: String? = nil) {
        self.source = source
        name = named.map { $0 == NamedSource.defaultName ? "source" : "source \($0)" } ?? "source"
        feed = CoreFeed(core: core, index: index)
        core.sourceBoard.register(source, at: index)
        source.start(into: feed)
    }

    /// Returns once the source has ended (after `shutdown()`).
    public func run() async throws {
        for await _ in feed.ended {}
    }

    /// Stops reading (within about 250 ms); an event the reader is carrying
    /// out still reaches the core, later ones do not.
    public func shutdown() async {
        source.stop()
        feed.finish()
    }
}

/// The daemon's `SourceSink`: each event goes straight into the core on the
/// reader's thread, as one of source `index`'s.
final class CoreFeed: SourceSink {
    private let core: DaemonCore
    private let index: Int
    private let open = Atomic<Bool>(true)
    /// Finishes when the source does.
    let ended: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init(core: DaemonCore, index: Int) {
        self.core = core
        self.index = index
        (ended, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    func take(_ event: SourceEvent) -> Bool {
        guard open.load(ordering: .acquiring) else { return false }
        core.ingest(event, from: index)
        return true
    }

    func idle() -> Double? {
        core.writeBatchedLines()
    }

    var wantsRawBytes: Bool { core.sourceBoard.capturesRaw }

    func finish() {
        open.store(false, ordering: .releasing)
        continuation.finish()
    }
}
