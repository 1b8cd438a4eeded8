@testable import LocationConfig
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// Builders and effect filters shared by the engine tests.
enum TestEngine {
    /// 2026-03-14T00:00:00Z: fix times (UTC) and `now` start here.
    static let t0 = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 0, minute: 0, second: 0)
    static let home = (latitude: 35.681199, longitude: 139.767066)

    static func client(
        _ name: String = "app", filter: Double? = nil, accuracy: DesiredAccuracy = .best,
        usage: String? = "Shows where you are", usageAlways: String? = "Tracks in the background",
        precise: Bool = true, purposes: [String: String] = ["survey": "Precise track for a survey"],
        authorization: AuthorizationStatus = .ask, updating: Bool = true, inUse: Bool = true, onceGrace: Double = 60,
        reducedGrid: Double = 2000, reducedInterval: Double = 900, locateTimeout: Double = 30
    ) -> ClientSettings {
        ClientSettings(
            name: name, distanceFilter: filter, desiredAccuracy: accuracy, usage: usage, usageAlways: usageAlways,
            precise: precise, purposes: purposes, authorization: authorization, updating: updating, inUse: inUse,
            onceGrace: onceGrace, reducedGrid: reducedGrid, reducedInterval: reducedInterval,
            locateTimeout: locateTimeout)
    }

    static func engine(
        _ clients: [ClientSettings], services: Bool = true, restricted: Set<String> = [], saved: SavedState? = nil,
        seed: UInt64 = 1
    ) -> Engine {
        Engine(
            settings: EngineSettings(clients: clients, services: services, restricted: restricted, policySource: "[policy] restricted in test.conf"),
            saved: saved, seed: seed)
    }

    static func engine(_ client: ClientSettings, services: Bool = true, restricted: Set<String> = []) -> Engine {
        engine([client], services: services, restricted: restricted)
    }

    /// A usable 3D fix `seconds` after t0, `north`/`east` metres from home (flat approximation, fine for tests).
    static func fix(
        _ seconds: Double, north: Double = 0, east: Double = 0, error: Double? = 5, mode: FixMode = .threeD
    ) -> Fix {
        let lat = home.latitude + north / 110_946.0
        let lon = home.longitude + east / (111_319.5 * 0.81234)
        return Fix(
            time: t0 + seconds, mode: mode, latitude: lat, longitude: lon, altitude: 40, horizontalError: error,
            verticalError: 8, speed: 1.2, course: 90, satellitesUsed: 9)
    }
}

extension Engine {
    /// Feeds a fix with `now` equal to its own time (replay style).
    mutating func feed(_ fix: Fix) -> [Effect] {
        handle(.fix(fix), now: fix.time ?? TestEngine.t0)
    }

    /// Applies a command at `seconds` after t0.
    mutating func run(_ command: Command, at seconds: Double = 0) -> CommandResult {
        handle(command, now: TestEngine.t0 + seconds)
    }

    /// Ticks at `seconds` after t0.
    mutating func tick(at seconds: Double) -> [Effect] {
        handle(.tick, now: TestEngine.t0 + seconds)
    }

    /// The user has allowed the named client's location button before (its one-time share prompt),
    /// so `share` grants at once, as the share rows of docs/authorization.md §3 describe.
    mutating func allowShare(_ client: String = "app") {
        if let i = index[client] { clients[i].shareConsent = true }
    }

    /// The named client's authorization (the test fails loudly through `!` only on a typo in the test itself).
    func auth(_ client: String = "app") -> ClientAuthorization {
        authorization(of: client) ?? ClientAuthorization(client: "missing", status: .restricted, stored: .restricted)
    }
}

extension Array where Element == Effect {
    var deliveries: [Delivery] {
        compactMap { if case .deliver(let d) = $0 { d } else { nil } }
    }

    func delivered(to client: String = "app") -> [Fix] {
        deliveries.filter { $0.client == client }.map(\.fix)
    }

    var authorizationEvents: [ClientAuthorization] {
        compactMap { if case .event(.authorization(let a)) = $0 { a } else { nil } }
    }

    var openedPrompts: [Prompt] {
        compactMap { if case .event(.prompt(let p, true)) = $0 { p } else { nil } }
    }

    var closedPrompts: [Prompt] {
        compactMap { if case .event(.prompt(let p, false)) = $0 { p } else { nil } }
    }

    func errors(for client: String = "app") -> [ClientErrorCode] {
        compactMap { if case .event(.error(client, let code, _)) = $0 { code } else { nil } }
    }

    var sourceEvents: [SourceState] {
        compactMap { if case .event(.source(let s)) = $0 { s } else { nil } }
    }

    var persists: Int { filter { $0 == .persist }.count }

    var events: [Event] { compactMap { if case .event(let e) = $0 { e } else { nil } } }
}

extension CommandResult {
    var accepted: CommandOutcome? { try? outcome.get() }

    var error: CommandError? {
        if case .failure(let e) = outcome { e } else { nil }
    }
}
