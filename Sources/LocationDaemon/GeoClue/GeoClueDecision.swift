import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues

/// The GeoClue face's decisions, as values (docs/geoclue.md): who an app is to the engine, what
/// its client object may have, and what reaches it. Pure — no bus, no core, no clock —
/// so `GeoClueDecisionTests` hands them cases; `GeoClueServer` asks them and carries the answer out.
enum GeoClueDecision {
    /// A D-Bus error a call is answered with: its name and message.
    struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// `org.freedesktop.DBus.Error.AccessDenied`, `…InvalidArgs`.
        var name: String
        /// What the app is told.
        var description: String

        static func accessDenied(_ message: String) -> Refusal { Refusal(name: accessDeniedName, description: message) }
        static func invalidArgs(_ message: String) -> Refusal { Refusal(name: invalidArgsName, description: message) }

        static let accessDeniedName = "org.freedesktop.DBus.Error.AccessDenied"
        static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    }

    // MARK: Who the app is

    /// The desktop id a `Start` is for (`GeoCluePeer.desktopId`: the Flatpak id, else what the app
    /// set), or why it is refused: none set, or one the rule refuses.
    static func desktopId(_ desktopId: String) -> Result<String, Refusal> {
        guard !desktopId.isEmpty else {
            return .failure(.accessDenied("set the DesktopId property (the app's .desktop file name without .desktop) before Start"))
        }
        guard DesktopId.isValid(desktopId) else {
            return .failure(.invalidArgs("DesktopId \(PeerText.escaped(desktopId, limit: 64)) is refused: \(DesktopId.rule)"))
        }
        return .success(desktopId)
    }

    // MARK: Which client

    /// The configured client whose `geoclue_id` is `desktopId` and whose app keys take `principal`
    /// (or that has none), the first in the configuration's order; `nil`: the app is one of its
    /// own (`GeoClueApps`). Clients that are apps of their own (`own`) are never a configured one.
    static func configuredClient(
        desktopId: String, principal: Principal, clients: [ClientSettings], own: Set<String>
    ) -> String? {
        for client in clients where client.geoclueId == desktopId && !own.contains(client.name) {
            guard let app = ProgramAllowList.app(client).0 else { return client.name }
            if app.matches(principal) { return client.name }
        }
        return nil
    }

    /// What an app that cannot become a client of its own is told.
    static func refusal(_ refusal: GeoClueApps.Refusal, desktopId: String, uid: UInt32) -> Refusal {
        switch refusal {
        case .denied:
            .accessDenied(
                "new GeoClue apps are refused here ([geoclue] new_apps = deny); the administrator can let \(desktopId) in "
                    + "with a [client.NAME] section holding geoclue_id = \(desktopId)")
        case .tooMany(let count):
            .accessDenied(
                "uid \(uid) has \(count) GeoClue apps already ([geoclue] max_apps); "
                    + "the administrator can raise max_apps or name this app with geoclue_id = \(desktopId)")
        case .full(let count):
            .accessDenied(
                "locationd knows \(count) GeoClue apps already, the most it keeps; "
                    + "the administrator can name this app with geoclue_id = \(desktopId)")
        case .unsaved(let error):
            .accessDenied("locationd cannot keep its list of GeoClue apps (\(error)); try again later")
        }
    }

    // MARK: What it may have

    /// What `Start` does with the engine client `name`, by its authorization.
    enum Start: Sendable, Equatable {
        /// Its status is `ask`: the app side sends `request while-using`, and positions come with the grant.
        case ask
        /// Allowed, Location Services on: the object is active.
        case serve
        /// Not allowed, or Location Services off: the call is refused with what the person can do.
        case refuse(Refusal)
    }

    /// `Start` of `name`, whose effective status is `status`, Location Services being `services`.
    static func start(_ name: String, status: AuthorizationStatus, services: Bool) -> Start {
        switch status {
        case .ask:
            return .ask
        case .always where services, .whileUsing where services:
            return .serve
        default:
            return .refuse(
                .accessDenied(
                    services
                        ? "\(name) is not allowed location (\(status)); the person can allow it with: "
                            + Command.authorize(client: name, status: .whileUsing).commandLine
                        : "Location Services are off; the person can turn them on with: \(Command.services(on: true).commandLine)"))
        }
    }

    /// Whether `Start` gives the reduced interval's position at once: the object asked no finer
    /// than NEIGHBORHOOD (`objectReduced`) or the client is set to reduced (`clientReduced`) —
    /// nothing new is disclosed, and the app does not wait for the next interval.
    static func givesAtOnce(objectReduced: Bool, clientReduced: Bool) -> Bool {
        objectReduced || clientReduced
    }

    /// Whether a started object stops when its client's grant changed to `status`, Location
    /// Services being `services`: when positions no longer go through, unless the client is back
    /// at `ask` (its prompt is the person's to answer).
    static func stopsOnRegrant(status: AuthorizationStatus, services: Bool) -> Bool {
        let allowed = services && (status == .always || status == .whileUsing)
        return !allowed && status != .ask
    }

    /// The Manager's `AvailableAccuracyLevel`: EXACT while the source has a fix, NONE otherwise.
    static func availableLevel(_ source: SourceState) -> UInt32 {
        source == .fix ? GeoClueLevel.exact : GeoClueLevel.none
    }
}

/// What one client object asked and was last signalled, deciding what reaches it
/// (docs/geoclue.md): its `RequestedAccuracyLevel` and `DistanceThreshold` as they were at
/// `Start`, its `TimeThreshold` as it is now. What it asks narrows its own signals, never the
/// engine client's deliveries; the first position after `Start` always goes.
struct GeoClueFilter: Sendable, Equatable {
    /// Whether it asked no more than the reduced position (COUNTRY to NEIGHBORHOOD).
    private(set) var reduced = false
    /// Its `DistanceThreshold` (`nil`: 0, every position).
    private(set) var distance: GeodesicThreshold?
    /// The last `LocationUpdated` (monotonic seconds).
    private(set) var lastSignal: Double?
    /// The position of the last `LocationUpdated`.
    private(set) var lastPoint: EarthPoint?

    /// Nothing asked, nothing signalled (an object not started).
    init() {}

    /// At `Start`: the object asked `level` and a distance threshold of `distanceThreshold` metres.
    init(level: UInt32, distanceThreshold: UInt32) {
        reduced = GeoClueLevel.wantsReduced(level)
        distance = distanceThreshold > 0 ? GeodesicThreshold(meters: Double(distanceThreshold)) : nil
    }

    /// Another portal session started on the object, asking `level`: the object is the coarsest
    /// level any open session asked (no app rides on another's finer level), and the new session
    /// gets its first position as a first `Start` does.
    mutating func anotherSession(level: UInt32) {
        if GeoClueLevel.wantsReduced(level) { reduced = true }
        lastPoint = nil
        lastSignal = nil
    }

    /// Whether nothing was signalled since `Start` (the position given at once still goes).
    var isFresh: Bool { lastPoint == nil }

    /// Whether a position may go at `now` under a `TimeThreshold` of `timeThreshold` seconds (0: none).
    func isDue(now: Double, timeThreshold: UInt32) -> Bool {
        guard timeThreshold > 0, let last = lastSignal else { return true }
        return now - last >= Double(timeThreshold)
    }

    /// Whether a delivery of `accuracy` must be narrowed to the client's own reduced position first.
    func narrows(_ accuracy: DeliveredAccuracy) -> Bool { reduced && accuracy == .full }

    /// Whether `point` (of `accuracy`, after narrowing) goes: the interval's reduced position again
    /// tells the app nothing new, and one within the distance threshold of the last is held back.
    func admits(_ point: EarthPoint, accuracy: DeliveredAccuracy) -> Bool {
        guard let last = lastPoint else { return true }
        if accuracy == .reduced, last.latitude == point.latitude, last.longitude == point.longitude { return false }
        if let distance, !distance.isReached(from: last, to: point) { return false }
        return true
    }

    /// `point` was signalled at `now`.
    mutating func signalled(_ point: EarthPoint, at now: Double) {
        lastSignal = now
        lastPoint = point
    }
}
