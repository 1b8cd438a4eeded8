import LocationValues

/// The one filter between the daemon's state and a reader (#9): what a peer
/// of a `ReadTier` may see while Location Services are `services`.
///
/// * A coordinate reaches only a privileged peer, and only while Location
///   Services are on: the receiver's position in `status`, `location` events.
/// * Everyone else (and everyone while services are off) gets the same
///   status without a position — fix mode, time, age, error estimates,
///   satellites used, the sky views (satellites used and seen, DOPs; never the satellite list), the
///   receiver's clock (its last fix's time, so the clock offset, and its
///   time jumps), counts, the MQTT brokers' state, what the program sockets
///   turned away, the source's outage (attempts and waits) and counts (lines read, unreadable, dropped), whether
///   the state is saved (and what a restart would undo: decisions, no coordinate), the clients'
///   status whole (authorization, counts, how each log is written: no
///   coordinate) — and every event but `location`.
/// * Who runs the programs connected to a client's program sockets (pid,
///   uid, process name) is no coordinate, but it is other users' business:
///   a privileged peer sees it whether or not services are on; anyone else
///   sees each program without them (how it came, whether it watches, how
///   many fixes it got), as `ProtectProc=invisible` keeps other users'
///   processes from the daemon itself.
/// * The app of a client (`apps`) is otherwise anyone: it gets its own
///   client's `location` events — the positions delivered to that client,
///   at its granted accuracy — and no other coordinate.
///
/// The stripped status is built fresh from an allow list (`status(_:)`), so a
/// field added to `StatusReport`, `EngineStatus` or `Fix` later is hidden
/// from those peers until it is named here.
public struct Disclosure: Sendable, Hashable {
    /// Who reads.
    public var tier: ReadTier
    /// Whether Location Services are on now.
    public var services: Bool
    /// The clients whose app the reader is: their `location` events reach it.
    public var apps: Set<String>

    /// The filter for `tier` while Location Services are `services`, for
    /// the app of `apps`.
    public init(tier: ReadTier, services: Bool, apps: Set<String> = []) {
        self.tier = tier
        self.services = services
        self.apps = apps
    }

    /// Whether coordinates may be shown: a privileged peer with Location Services on.
    public var showsPositions: Bool { tier == .privileged && services }

    /// `report` as this reader may see it: whole when `showsPositions`,
    /// otherwise without any coordinate.
    public func status(_ report: StatusReport) -> StatusReport {
        var report = report
        report.reader = ControlRole(isOperator: tier == .privileged, apps: apps)
        if showsPositions { return report }
        let full = report.status
        var status = EngineStatus(
            services: full.services, source: full.source, lastFix: full.lastFix.map(Self.quality),
            lastFixAge: full.lastFixAge, clients: full.clients)
        // The receiver's clock is no coordinate: its jumps stay, as does the offset (from `time`).
        status.timeJumps = full.timeJumps
        status.receivers = full.receivers
        status.lastTimeJump = full.lastTimeJump
        status.lastTimeJumpAge = full.lastTimeJumpAge
        // No coordinate in any of these (SourceOutage, SourceCounts, StateSaveStatus, SourceStatus hold none);
        // each output face's section says itself what it shows (`StatusSection.seen(through:)`).
        return StatusReport(
            status: status, time: report.time, sourceName: report.sourceName, sourceOutage: report.sourceOutage,
            sourceCounts: report.sourceCounts, stateSave: report.stateSave, sources: report.sources,
            skies: report.skies.map { SkyReport(view: Self.quality(of: $0.view), age: $0.age) }, reader: report.reader,
            sections: report.sections.seen(through: self))
    }

    /// A connected program without who runs it: its client, socket, watching and count.
    static func anonymous(_ program: ConnectedProgram) -> ConnectedProgram {
        ConnectedProgram(
            client: program.client, via: program.via, pid: nil, uid: nil, name: nil, watching: program.watching,
            delivered: program.delivered)
    }

    /// Whether a watcher reading through this filter gets `event`: every
    /// event but `location` unless `showsPositions`, or the event is a
    /// delivery to a client whose app the reader is (with services on).
    public func allows(_ event: ControlEvent) -> Bool {
        if case .location = event.kind {
            return showsPositions || (services && event.client.map(apps.contains) == true)
        }
        return true
    }

    /// What a fix says without saying where: its time, mode, error
    /// estimates and satellites used.
    static func quality(of fix: Fix) -> Fix {
        Fix(
            time: fix.time, mode: fix.mode, latitude: .nan, longitude: .nan,
            horizontalError: fix.horizontalError, verticalError: fix.verticalError,
            satellitesUsed: fix.satellitesUsed, device: fix.device)
    }

    /// What a sky view says, named field by field: which receiver, when, counts and DOPs — never
    /// the satellites, whose geometry narrows a position.
    static func quality(of sky: SkyView) -> SkyView {
        SkyView(
            satellitesUsed: sky.satellitesUsed, satellitesVisible: sky.satellitesVisible, hdop: sky.hdop,
            pdop: sky.pdop, vdop: sky.vdop, device: sky.device, time: sky.time)
    }

    /// The `not-authorized` note a `watch` reply carries for an unprivileged
    /// peer (`withheld`), or `nil` for a privileged one and for an app watching
    /// its own client (`watching`), from which nothing is withheld. `group`
    /// names `socket_group` when one is configured.
    public func withheldNote(group: String?, watching client: String? = nil) -> ControlReply.Withheld? {
        guard tier == .unprivileged else { return nil }
        if let client, apps.contains(client) { return nil }
        let who = group.map { "root and members of the socket group \($0)" } ?? "root"
        let withheld = ["location"]
        let carried = ControlEvent.names.filter { !withheld.contains($0) }
        // An app hears where its own client's positions come in: say so as what it gets.
        let own = apps.sorted()
        let head =
            own.isEmpty
            ? "location events go only to \(who)"
            : "other clients' location events go only to \(who); \(Self.list(own))'s come to you, its app"
        return ControlReply.Withheld(
            events: withheld, code: ProtocolError.Code.notAuthorized.rawValue,
            message: "\(head); this stream carries \(Self.list(carried)) events")
    }

    /// `a, b and c`.
    static func list(_ words: [String]) -> String {
        guard let last = words.last else { return "" }
        let rest = words.dropLast()
        return rest.isEmpty ? last : rest.joined(separator: ", ") + " and " + last
    }
}
