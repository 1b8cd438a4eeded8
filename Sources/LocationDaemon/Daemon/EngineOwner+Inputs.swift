import LocationConfig
import LocationCore
import LocationProtocol
import LocationSystem
import LocationValues

/// The inputs: a source's events and pauses, a reopening of the logs, a reload, the stop.
extension EngineOwner {
    /// One event of source `index` (config order).
    func ingest(_ event: SourceEvent, from index: Int = 0) {
        guard !stopped else { return }
        let now = clock.monotonic()
        effects.removeAll(keepingCapacity: true)
        switch event {
        case .fix(var fix):
            // No rearm: the pause that follows a fix sets the tick (`writeBatchedLines`).
            fixesSeen += 1
            fix.device = receiverName(fix.device, from: index)
            engine.handle(.fix(fix), now: now, into: &effects)
            // "logging 3D fixes": the one part of the status line a fix changes without an event.
            let mode = inPlace { $0.lastFixMode }
            if mode != statusMode {
                statusMode = mode
                statusChanged?(now)
            }
        case .state(let sourceState, let detail):
            if sourceState != sources.states[index] {
                // The sources log their own connects and losses; this is the engine's view.
                Diagnostics.daemon.debug("\(sources.sources[index].description): \(sourceState.rawValue): \(detail)")
            }
            // One of several back from connecting: its receivers' TTFF starts over, the others' not.
            if sources.several, sources.states[index] == .connecting, sourceState != .connecting {
                engine.sourceReconnected(receivers: sources.receivers(of: index), now: now)
            }
            // The engine keeps one state, all sources' combined; it hears it when it changes, or
            // from the source that sets it (with one source: every report, as always).
            let combinedState = sources.report(sourceState, from: index)
            if sources.several { engine.setReceiversAtEndOfFile(sources.receiversAtEndOfFile, now: now) }
            guard let combined = combinedState else { return rearm(now: now) }
            engine.handle(.source(combined), now: now, into: &effects)
            carry(now: now)
            return rearm(now: now)
        case .sky(var view):
            // The engine decides nothing on it, so there is nothing to carry: kept for `status`,
            // and handed to the programs of the clients the engine lets see it. Named as its fixes are.
            view.device = receiverName(view.device, from: index)
            let device = view.device ?? ""
            skies[device] = (view, now)
            // The engine is asked only when a face wants the sky, and no list of faces is made.
            var clients: [String]?
            for face in carrier.faces where face.wantsSky {
                let allowed = clients ?? engine.skyClients(device: device, now: now)
                clients = allowed
                if !allowed.isEmpty { face.deliverSky(view, to: allowed) }
            }
            return
        case .outage(let current):
            // Status only, like the sky view.
            sources.outages[index] = current.map { ($0, now) }
            return
        case .raw(let device, let bytes, let time):
            // Kept for the clients that may have full-accuracy fixes of that receiver now, and counted.
            let name = receiverName(device, from: index) ?? device
            for client in rawCaptures.append(bytes, device: name, time: time, clients: engine.rawCaptureClients(device: name)) {
                report.count(client, sink: .raw, accuracy: .full, time: time)
            }
            return
        }
        carry(now: now)
    }

    /// The name the engine knows source `index`'s receiver `device` by (docs/sources.md, "Several
    /// sources"): as the source names it with one source; with several, prefixed with the source's
    /// NAME when another source brought that name first (said once in the journal).
    func receiverName(_ device: String?, from index: Int) -> String? {
        guard sources.several else { return device }
        let name = sources.receiverName(device, from: index)
        if let renamed = sources.takeRenamed() { Diagnostics.daemon.notice(renamed) }
        return name
    }

    /// The source paused: the lines batched since are written, and synced once the oldest
    /// unsynced line is about a second old (`ClientLogs.writeBatches`); then the tick is set by
    /// what else is due. Returns when the logs are next due (`ClientLogs.nextDeadline`), or the
    /// 5 s without a usable fix or a pinned receiver's failover (`Engine.outageTimer`) if sooner,
    /// which the reader carries in its own wait and the tick leaves to it: at 1 Hz the next
    /// epoch's write syncs the line and moves both on, and the core thread is not woken to stand
    /// by for any of them. A reader whose wait ran out calls again: once the time is up, the
    /// tick is set for now, and it starts the outage. (Every other input sets the tick by the logs too, so a reader that
    /// stops, or loses its device, leaves no line unsynced for long: the source's state change
    /// that follows sets it, and starts the outage itself.)
    func writeBatchedLines() -> Double? {
        guard !stopped else { return nil }
        let now = clock.monotonic()
        // The wall clock may have been set (NTP, gpsd): the saved reduced-accuracy time follows it.
        engine.wallClockOffset = clock.wall() - now
        carrier.logs.writeBatches(now: now)
        rawCaptures.writeBatches()
        announceLogChanges()
        // The lines held and lost that the status line counts: brought up to date once a second.
        if !failingLogs.isEmpty { statusChanged?(now + Self.retryDelay) }
        rearm(now: now, logs: false)
        var due = carrier.logs.nextDeadline(now: now)
        let outage = inPlace { $0.outageTimer }
        if outage > now {
            due = min(due, outage)
        } else if outage.isFinite {
            alarm?(outage)
        }
        return due.isFinite ? due : nil
    }

    func reopenLogs() {
        guard !stopped else { return }
        let open = carrier.logs.reopenAll()
        rawCaptures.closeAll()
        announceLogChanges()
        defer { rearm(now: clock.monotonic()) }
        do {
            try audit.reopen()
        } catch {
            Diagnostics.daemon.error("cannot reopen the audit log \(audit.path) (\(error)); still writing the file open before")
        }
        Diagnostics.daemon.notice("reopened \(open) log\(open == 1 ? "" : "s") and the audit log")
    }

    func reload(_ newConfig: DaemonConfig) -> [String] {
        guard !stopped else { return [] }
        let reload = ConfigReload(running: config, reloaded: newConfig)
        let now = clock.monotonic()
        effects = EffectList(engine.handle(reload.effective.engineSettings, now: now))
        carrier.logs.reconfigure(reload.effective)
        rawCaptures.reconfigure(reload.effective)
        heartbeats.reconfigure(reload.effective, now: now)
        sourceBoard.capturesRaw = rawCaptures.isWanted
        config = reload.effective
        carry(now: now)
        rearm(now: now)
        // Clients come and go, and their logs with them: not all of it is an engine event.
        failingLogs = Set(carrier.logs.failing.map(\.client))
        statusChanged?(now)
        return reload.needRestart
    }

    /// Closes everything and saves the state; returns what the state file on disk lacks when
    /// that save failed (`SavedState.undone(bySaved:)`: what a restart will undo), else `nil`.
    @discardableResult
    func shutdown() -> [String]? {
        guard !stopped else { return nil }
        stopped = true
        carrier.logs.closeAll()
        rawCaptures.closeAll()
        audit.close()
        report.flush(now: clock.wall(), all: true)
        let last = engine.savedState
        let saved = state.saveNow(last, now: clock.monotonic())
        watchers.removeAll()
        return saved ? nil : state.status(current: last).unsaved
    }

    func abandon() {
        guard !stopped else { return }
        stopped = true
        carrier.logs.closeAll()
        rawCaptures.closeAll()
        audit.close()
    }
}
