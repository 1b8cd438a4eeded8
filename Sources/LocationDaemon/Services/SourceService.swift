/// Runs the configured fix source and feeds everything it reports to the
/// core. The source is started when the service is made (its reader thread
/// connects while the rest starts), so READY=1 can follow it; its events wait
/// in the source's stream until `run()` reads them.
public final class SourceService: Service {
    /// `source`.
    public let name = "source"
    /// The source.
    public let source: any FixSource
    private let core: DaemonCore
    private let events: AsyncStream<SourceEvent>

    /// Starts `source`, whose events go to `core`.
    public init(source: any FixSource, core: DaemonCore) {
        self.source = source
        self.core = core
        events = source.start()
    }

    /// Feeds the core until the source's stream ends (after `shutdown()`).
    public func run() async throws {
        for await event in events {
            await core.ingest(event)
        }
    }

    /// Stops reading (within about 250 ms); what was already read still reaches the core.
    public func shutdown() async {
        source.stop()
    }
}
