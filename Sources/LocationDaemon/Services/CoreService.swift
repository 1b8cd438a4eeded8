/// The daemon core's tick (engine timers, held log lines, `fsync = interval`,
/// pending state saves, the access report), made when the core says one of
/// them is due (`DaemonCore.setAlarm`) and never else: nothing due, no
/// wake-up. Started first, so it stops last: its shutdown writes and syncs
/// the logs and saves the state after the source and the control server
/// have stopped feeding the core.
public final class CoreService: Service {
    /// `core`.
    public let name = "core"
    /// The core it drives.
    public let core: DaemonCore
    private let ticks: TickStream

    /// Ticks `core` when it says something is due.
    public init(core: DaemonCore) {
        self.core = core
        let ticks = TickStream(alarmOn: .shared)
        self.ticks = ticks
        core.setAlarm { ticks.due(by: $0) }
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
