import LocationConfig
import LocationCore
import LocationProtocol
import LocationSystem
import LocationValues

/// The deadlines: the tick and when it must come, and the status line's changes.
extension EngineOwner {
    /// The tick, which comes when `nextDeadline` does: engine timers, the logs' held lines and
    /// syncs, the audit log, a pending state save, the access report; then sets the next.
    func tick() {
        guard !stopped else { return }
        let now = clock.monotonic()
        engine.wallClockOffset = clock.wall() - now
        effects.removeAll(keepingCapacity: true)
        engine.handle(.tick, now: now, into: &effects)
        carry(now: now)
        heartbeats.beat(now: now, wall: clock.wall(), status: { engine.status(now: now) }, logs: carrier.logs)
        carrier.logs.flushIfDue(now: now)
        rawCaptures.writeBatches()
        announceLogChanges()
        audit.flushIfDue(now: now)
        state.saveIfDue(now: now) { engine.savedState }
        report.flush(now: clock.wall())
        announceStateChange()
        // Timers, held lines' counts: a tick comes only when something is due, so it may always ask.
        statusChanged?(now)
        let next = nextDeadline(now: now)
        alarm?(next > now ? next : now + Self.retryDelay)
    }

    /// When the tick must come next (monotonic seconds; infinity: not until an input): the
    /// earliest of the engine's client timers (`Engine.clientTimer`: Allow Once, temporary full
    /// accuracy, locate timeouts), the logs' syncs and retries (`ClientLogs.nextDeadline`), the
    /// audit log's retries, a pending state save and the access report's next flush. Not the 5 s
    /// without a usable fix nor a pinned receiver's failover, which every fix moves: the reader
    /// stands by for them (`writeBatchedLines`). Nothing due, no tick: the core thread sleeps
    /// (docs/performance.md).
    /// `logs: false` leaves the logs' deadline out (a reader stands by for it).
    func nextDeadline(now: Double, logs: Bool = true) -> Double {
        var next = min(inPlace { $0.clientTimer }, logs ? carrier.logs.nextDeadline(now: now) : .infinity)
        next = min(next, audit.nextDeadline(now: now), state.nextDeadline, heartbeats.nextDeadline)
        let flush = report.nextFlush()
        if flush.isFinite { next = min(next, now + (flush - clock.wall())) }
        return next
    }

    /// Sets the core's tick by `wake` from now on (the daemon's `CoreService`; tests leave it
    /// unset and tick by hand), the access report's first count of a minute included.
    func setAlarm(_ wake: @escaping @Sendable (Double) -> Void) {
        alarm = wake
        let clock = clock
        report.onFirstCount { seconds in wake(clock.monotonic() + seconds) }
        rearm(now: clock.monotonic())
    }

    /// From now on `changed` is told by when systemd's status line should be looked at again
    /// whenever it may say something else (`DaemonCore.onStatusChange`).
    func onStatusChange(_ changed: @escaping @Sendable (Double) -> Void) {
        statusChanged = changed
    }

    /// After an input that may have made something due sooner: the tick comes by then.
    func rearm(now: Double, logs: Bool = true) {
        guard let alarm, !stopped else { return }
        let next = nextDeadline(now: now, logs: logs)
        if next.isFinite { alarm(next) }
    }
}
