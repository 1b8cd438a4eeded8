import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues

/// The clients' heartbeat records (`heartbeat = SECONDS`, locationd.conf(5)): every interval, a
/// client that is updating and had no fix logged since the last look gets a `HeartbeatRecord`
/// in its log saying why — the distance filter held fixes back (and how many), the receiver has
/// no fix, the client is not in use — and the receiver's state; never a position. The daemon's
/// tick comes at `nextDeadline`.
///
/// Not thread-safe: one owner (the daemon core) calls it.
final class Heartbeats {
    private struct Beat {
        var client: String
        var interval: Double
        /// When to look next (monotonic seconds).
        var due: Double
        /// The client's deliveries and distance-filter drops at the last look.
        var delivered: Int?
        var heldBack: Int?
    }

    private var beats: [Beat] = []

    /// The heartbeats `config` asks for, the first due an interval after `now` (monotonic).
    init(config: DaemonConfig, now: Double) {
        reconfigure(config, now: now)
    }

    /// Takes a reloaded configuration: a client whose interval is unchanged keeps its schedule.
    func reconfigure(_ config: DaemonConfig, now: Double) {
        let old = Dictionary(beats.map { ($0.client, $0) }, uniquingKeysWith: { first, _ in first })
        beats = config.clients.compactMap { client in
            guard let interval = client.heartbeat else { return nil }
            if let kept = old[client.name], kept.interval == interval { return kept }
            return Beat(client: client.name, interval: interval, due: now + interval)
        }
    }

    /// When the next look is due (monotonic seconds; infinity: none configured).
    var nextDeadline: Double {
        beats.map(\.due).min() ?? .infinity
    }

    /// Looks at every client whose interval is up: writes its record to `logs` when it is
    /// updating and nothing was delivered since the last look. `status` is asked only then.
    func beat(now: Double, wall: Double, status: () -> EngineStatus, logs: ClientLogs) {
        guard nextDeadline <= now else { return }
        let engine = status()
        for index in beats.indices where beats[index].due <= now {
            beats[index].due = max(beats[index].due + beats[index].interval, now)
            guard let client = engine.clients.first(where: { $0.authorization.client == beats[index].client }) else { continue }
            let delivered = client.deliveredCount
            let held = client.drops[.distanceFilter]
            defer {
                beats[index].delivered = delivered
                beats[index].heldBack = held
            }
            // The first look only learns the counts: a fix may have been logged before it.
            guard let before = beats[index].delivered, delivered == before, client.updating else { continue }
            let heldBack = held - (beats[index].heldBack ?? held)
            let why: HeartbeatRecord.Why =
                heldBack > 0 ? .distanceFilter : engine.source != .fix ? .noFix : !client.inUse ? .notInUse : .notDelivered
            let record = HeartbeatRecord(time: wall, why: why, heldBack: heldBack, receiver: engine.source.rawValue)
            logs.append(record.line, client: beats[index].client, time: wall)
        }
    }
}
