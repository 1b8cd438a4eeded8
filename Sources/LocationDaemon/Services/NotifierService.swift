import LocationSystem
import Synchronization

/// Talks to systemd (`Type=notify`): `READY=1` as soon as it runs (the
/// daemon starts it last, after the state, the logs, the socket and the
/// source are up), a `STATUS=` line when the core's one-line summary
/// changes, `WATCHDOG=1` every `watchdogPingInterval` (half of
/// `$WATCHDOG_USEC`) — sent only after the core has answered, so a wedged
/// core stops the pings and systemd restarts it — and `STOPPING=1` at
/// shutdown.
///
/// It wakes only when there is something to send: its alarm on the core
/// thread (a `TickStream`) is set by the core when the status line may have
/// changed (`DaemonCore.onStatusChange`: an event the watchers hear of, a
/// log or the state save failing or working again, the fixes' mode, a
/// reload, a tick; once a second while a log fails, for its counts of held
/// lines) and for the next ping; nothing changes, no ping due, no wake-up. Without `$NOTIFY_SOCKET` it only waits for shutdown, and nothing
/// wakes for it.
public final class NotifierService: Service {
    /// `systemd`.
    public let name = "systemd"
    /// Where notifications go.
    public let notifier: SystemdNotifier
    private let core: DaemonCore
    private let ticks: TickStream
    private let failures = FailureLatch()
    /// What systemd was told. Every notification is sent holding this lock,
    /// so none (a watchdog ping from a wake-up that was under way) can follow
    /// STOPPING=1.
    private let state: Mutex<NotifierState>

    /// A notifier service for `core`.
    public init(notifier: SystemdNotifier, core: DaemonCore) {
        self.notifier = notifier
        self.core = core
        state = Mutex(NotifierState(pingInterval: notifier.watchdogPingInterval))
        // Without systemd there is nothing to send until shutdown: no alarm at all.
        ticks = notifier.isEnabled ? TickStream(alarmOn: .shared) : TickStream()
    }

    /// Sends READY=1, then status changes and watchdog pings until shutdown.
    public func run() async throws {
        guard notifier.isEnabled else {
            for await _ in ticks.ticks {}
            return
        }
        let ticks = ticks
        // Called under the core's lock on the thread of the change: only sets the alarm.
        core.onStatusChange { ticks.due(by: $0) }
        let status = core.statusLine()
        state.withLock { state in
            send(&state) { try notifier.ready(status: status) }
            state.status = status
        }
        // The first ping now; then each wake-up sets the alarm for the next (a fired alarm is unset).
        var next = wake(now: SystemClock.monotonic())
        if next.isFinite { ticks.due(by: next) }
        for await _ in ticks.ticks {
            next = wake(now: SystemClock.monotonic())
            if next.isFinite { ticks.due(by: next) }
        }
    }

    /// One wake-up at `now` (monotonic seconds): asks the core for its status line — the core's
    /// lock answers, on the core thread, so the core is not stuck —, sends `STATUS=` if the line
    /// changed and `WATCHDOG=1` if a ping is due, and returns by when the next wake-up must come
    /// (infinity: only when the status changes).
    func wake(now: Double) -> Double {
        let line = core.statusLine()
        return state.withLock { state in
            guard !state.stopped else { return .infinity }
            let step = state.wake(now: now, status: line)
            if let status = step.status { send(&state) { try notifier.status(status) } }
            if step.ping { send(&state) { try notifier.watchdog() } }
            return step.next
        }
    }

    /// Sends STOPPING=1 and stops.
    public func shutdown() async {
        state.withLock { state in
            send(&state) { try notifier.stopping(status: "stopping") }
            state.stopped = true
        }
        ticks.stop()
    }

    /// Reloading: `RELOADING=1`; call `reloaded()` after.
    public func reloading() {
        state.withLock { state in
            send(&state) { try notifier.reloading(status: "reloading the configuration") }
        }
    }

    /// Reload done: `READY=1` with the current status.
    public func reloaded() async {
        let status = core.statusLine()
        state.withLock { state in
            send(&state) { try notifier.ready(status: status) }
            state.status = status
        }
    }

    /// Sends one notification unless STOPPING=1 has gone. (One short
    /// datagram, as sd_notify(3) sends it: holding the lock over it is what
    /// keeps the order.)
    private func send(_ state: inout NotifierState, _ body: () throws -> Void) {
        guard !state.stopped else { return }
        do {
            try body()
            failures.clear()
        } catch {
            if failures.set() { Diagnostics.systemd.warning("cannot notify systemd: \(error)") }
        }
    }
}

/// What the notifier has told systemd, and when it pings the watchdog next.
/// Each wake-up of the notifier is one `wake(now:status:)`, which says what to
/// send and by when the next wake-up must come: pure, so the tests hand it
/// times and status lines.
struct NotifierState: Sendable {
    /// What one wake-up sends, and by when the next must come.
    struct Step: Sendable, Equatable {
        /// The `STATUS=` line to send, if it changed.
        var status: String?
        /// Whether to send `WATCHDOG=1`.
        var ping: Bool
        /// When the next ping is due (monotonic seconds; infinity: no watchdog).
        var next: Double
    }

    /// Whether STOPPING=1 has gone: nothing follows it.
    var stopped = false
    /// The status line systemd was last sent (with READY=1 or as STATUS=).
    var status: String?
    /// `WATCHDOG=1` every this many seconds (`SystemdNotifier.watchdogPingInterval`: half of
    /// `$WATCHDOG_USEC`); nil: systemd wants no pings.
    let pingInterval: Double?
    /// When the next ping is due (monotonic seconds; infinity: never). The first wake-up pings.
    private(set) var nextPing: Double

    init(pingInterval: Double?) {
        self.pingInterval = pingInterval
        nextPing = pingInterval == nil ? .infinity : -.infinity
    }

    /// A wake-up at `now` (monotonic seconds), the core's status line being `line`: the line if
    /// it is not what systemd was last sent, a ping if one is due (the next then a whole
    /// interval later: a wake-up for the status in between does not put it off or bring it on).
    mutating func wake(now: Double, status line: String) -> Step {
        var step = Step(status: nil, ping: false, next: nextPing)
        if line != status {
            status = line
            step.status = line
        }
        if let pingInterval, now >= nextPing {
            nextPing = now + pingInterval
            step.ping = true
            step.next = nextPing
        }
        return step
    }
}
