import LocationSystem
import Synchronization

/// Talks to systemd (`Type=notify`): `READY=1` as soon as it runs (the
/// daemon starts it last, after the state, the logs, the socket and the
/// source are up), a `STATUS=` line whenever the core's one-line summary
/// changes, `WATCHDOG=1` every `watchdogPingInterval` — sent only after the
/// core has answered, so a wedged core stops the pings and systemd restarts
/// it — and `STOPPING=1` at shutdown. Without `$NOTIFY_SOCKET` it only
/// waits for shutdown.
public final class NotifierService: Service {
    /// `systemd`.
    public let name = "systemd"
    /// Where notifications go.
    public let notifier: SystemdNotifier
    private let core: DaemonCore
    private let ticks: TickStream
    private let failures = FailureLatch()
    /// Whether STOPPING=1 has been sent. Every notification is sent holding
    /// this lock, so none (a watchdog ping from a tick that was under way)
    /// can follow STOPPING=1.
    private let stopped = Mutex(false)

    /// A notifier service for `core`, checking its status every `interval` seconds.
    public init(notifier: SystemdNotifier, core: DaemonCore, interval: Double = 1) {
        self.notifier = notifier
        self.core = core
        // Without systemd there is nothing to send until shutdown: no ticks at all.
        ticks = TickStream(interval: notifier.isEnabled ? min(interval, notifier.watchdogPingInterval ?? interval) : nil)
    }

    /// Sends READY=1, then status changes and watchdog pings until shutdown.
    public func run() async throws {
        guard notifier.isEnabled else {
            for await _ in ticks.ticks {}
            return
        }
        var status = core.statusLine()
        send { try notifier.ready(status: status) }
        let ping = notifier.watchdogPingInterval
        var lastPing = SystemClock.monotonic()
        if ping != nil { send { try notifier.watchdog() } }
        for await _ in ticks.ticks {
            let now = core.statusLine()
            if now != status {
                status = now
                send { try notifier.status(now) }
            }
            let time = SystemClock.monotonic()
            if let ping, time - lastPing >= ping * 0.95 {
                lastPing = time
                send { try notifier.watchdog() }
            }
        }
    }

    /// Sends STOPPING=1 and stops.
    public func shutdown() async {
        send(last: true) { try notifier.stopping(status: "stopping") }
        ticks.stop()
    }

    /// Reloading: `RELOADING=1`; call `reloaded()` after.
    public func reloading() {
        send { try notifier.reloading(status: "reloading the configuration") }
    }

    /// Reload done: `READY=1` with the current status.
    public func reloaded() async {
        let status = core.statusLine()
        send { try notifier.ready(status: status) }
    }

    /// Sends one notification unless STOPPING=1 has gone; `last` marks it as
    /// STOPPING=1 itself. (One short datagram, as sd_notify(3) sends it:
    /// holding the lock over it is what keeps the order.)
    private func send(last: Bool = false, _ body: () throws -> Void) {
        stopped.withLock { stopped in
            guard !stopped else { return }
            stopped = last
            do {
                try body()
                failures.clear()
            } catch {
                if failures.set() { Diagnostics.systemd.warning("cannot notify systemd: \(error)") }
            }
        }
    }
}
