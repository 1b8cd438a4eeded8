/// One long-running part of the daemon, in the spirit of
/// swift-service-lifecycle: `run()` does the work until `shutdown()` asks it
/// to finish; a `ServiceGroup` runs several in a task group and shuts them
/// down in reverse start order.
public protocol Service: Sendable {
    /// A short name for diagnostics (`source`, `core`, `control`, `systemd`).
    var name: String { get }
    /// Does the service's work; returns after `shutdown()` (or throws when it cannot go on).
    func run() async throws
    /// Asks `run()` to finish the work in hand and return. Called once, from
    /// the group's shutdown; it may return before `run()` has.
    func shutdown() async
}
