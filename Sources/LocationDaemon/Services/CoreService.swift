/// The daemon core's heartbeat: `tick()` once a second (engine timers, held
/// log lines, `fsync = interval`, pending state saves). Started first, so it
/// stops last: its shutdown writes and syncs the logs and saves the state
/// after the source and the control server have stopped feeding the core.
public final class CoreService: Service {
    /// `core`.
    public let name = "core"
    /// The core it drives.
    public let core: DaemonCore
    private let ticks: TickStream

    /// A heartbeat for `core` every `interval` seconds (the engine needs at least one a second).
    public init(core: DaemonCore, interval: Double = 1) {
        self.core = core
        ticks = TickStream(interval: interval)
    }

    /// Ticks until shutdown.
    public func run() async throws {
        for await _ in ticks.ticks {
            core.tick()
        }
    }

    /// Stops ticking, then flushes, syncs and closes the logs and saves the state.
    public func shutdown() async {
        ticks.stop()
        core.shutdown()
    }
}
