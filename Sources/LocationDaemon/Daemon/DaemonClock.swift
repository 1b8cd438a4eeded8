import LocationSystem
/// The two clocks the daemon reads: monotonic seconds for the engine's `now`
/// (timers must not jump with the wall clock), and UTC seconds to stamp
/// events and status replies. Tests hand in their own.
public struct DaemonClock: Sendable {
    /// Monotonic seconds (`CLOCK_MONOTONIC`).
    public var monotonic: @Sendable () -> Double
    /// UTC seconds since 1970 (`CLOCK_REALTIME`).
    public var wall: @Sendable () -> Double

    /// A clock from its two readings.
    public init(monotonic: @escaping @Sendable () -> Double, wall: @escaping @Sendable () -> Double) {
        self.monotonic = monotonic
        self.wall = wall
    }

    /// The system's clocks.
    public static let system = DaemonClock(monotonic: { SystemClock.monotonic() }, wall: { SystemClock.utc() })
}
