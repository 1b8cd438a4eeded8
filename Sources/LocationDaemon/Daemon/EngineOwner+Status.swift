import LocationConfig
import LocationCore
import LocationProtocol
import LocationSystem
import LocationValues

/// What the owner tells: systemd's status line, the `status` reply, the counts.
extension EngineOwner {
    func statusLine() -> String {
        SystemdStatusLine.text(status(now: clock.monotonic()), sourceName: sourceName, stateSave: stateSave)
    }

    func statusReport() -> StatusReport {
        let now = clock.monotonic()
        return StatusReport(
            status: status(now: now), time: clock.wall(), sourceName: sourceName,
            sourceOutage: sources.outage(of: 0, now: now), sourceCounts: sourceBoard.counts, stateSave: stateSave,
            sources: sources.statuses(now: now, counts: sourceBoard.counts(at:)),
            skies: skies.keys.sorted().compactMap { device in
                skies[device].map { SkyReport(view: $0.view, age: max(0, now - $0.at)) }
            },
            sections: StatusSections(carrier.faces.compactMap(\.statusSection)))
    }

    /// How saving the state goes now.
    var stateSave: StateSaveStatus { state.status(current: engine.savedState) }

    /// The engine's status with what only the daemon knows per client: how its log is written.
    func status(now: Double) -> EngineStatus {
        var status = engine.status(now: now)
        for index in status.clients.indices {
            status.clients[index].logWrite = carrier.logs.writeStatus(of: status.clients[index].authorization.client)
            status.clients[index].rawLogs = rawCaptures.paths(of: status.clients[index].authorization.client)
        }
        for index in status.receivers.indices {
            status.receivers[index].source = sources.source(of: status.receivers[index].device)
        }
        return status
    }

    var savedState: SavedState { engine.savedState }

    var tally: EffectCarrier.Tally { carrier.tally }

    var stateSaves: Int { state.saves }

    var watcherCount: Int { watchers.count }

    var logPaths: [String: String] {
        var paths: [String: String] = [:]
        for client in carrier.logs.clients {
            if let path = carrier.logs.path(of: client) { paths[client] = path }
        }
        return paths
    }
}
