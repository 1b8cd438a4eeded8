import LocationCore
@testable import LocationDaemon
import Testing
import LocationConfig
import LocationProtocol
import LocationValues

/// The GeoClue face's decisions without a bus (#49): who an app is as a client, what its client
/// object may have (its level, its thresholds), and what is signalled to it.
@Suite(.timeLimit(.minutes(10))) struct GeoClueDecisionTests {
    static let maps = "org.gnome.Maps"

    static func peer(uid: UInt32) -> Principal {
        Principal(uid: uid, gid: uid, groups: [], pid: 4242)
    }

    static func fix(_ latitude: Double, _ longitude: Double) -> EarthPoint {
        EarthPoint(latitude: latitude, longitude: longitude)
    }

    // MARK: Who the app is

    @Test func anAppThatSetNoDesktopIdIsToldToSetOne() {
        #expect(GeoClueDecision.desktopId("") == .failure(.accessDenied(
            "set the DesktopId property (the app's .desktop file name without .desktop) before Start")))
    }

    @Test func aDesktopIdTheRuleRefusesIsAnInvalidArgument() throws {
        guard case .failure(let refusal) = GeoClueDecision.desktopId("../etc/passwd") else {
            Issue.record("a path is no desktop id")
            return
        }
        #expect(refusal.name == GeoClueDecision.Refusal.invalidArgsName)
        #expect(refusal.description.hasPrefix("DesktopId ../etc/passwd is refused: "), "\(refusal)")
        #expect(GeoClueDecision.desktopId(Self.maps) == .success(Self.maps))
    }

    // MARK: Which client

    @Test func anAppMatchedToAConfiguredGeoclueIdIsThatClient() {
        let clients = [ClientSettings(name: "logger"), ClientSettings(name: "maps", geoclueId: Self.maps)]
        #expect(GeoClueDecision.configuredClient(desktopId: Self.maps, principal: Self.peer(uid: 1000), clients: clients, own: []) == "maps")
    }

    @Test func anUnknownAppIsNoConfiguredClient() {
        let clients = [ClientSettings(name: "maps", geoclueId: Self.maps)]
        #expect(GeoClueDecision.configuredClient(desktopId: "org.example.Unknown", principal: Self.peer(uid: 1000), clients: clients, own: []) == nil)
        #expect(GeoClueDecision.configuredClient(desktopId: Self.maps, principal: Self.peer(uid: 1000), clients: [], own: []) == nil)
    }

    @Test func aConfiguredClientWhoseAppKeysDoNotTakeThePeerIsNotItsClient() {
        var rootOnly = ClientSettings(name: "survey", geoclueId: Self.maps)
        rootOnly.app = AppSettings(users: ["root"])
        let anyone = ClientSettings(name: "maps", geoclueId: Self.maps)
        #expect(GeoClueDecision.configuredClient(desktopId: Self.maps, principal: Self.peer(uid: 0), clients: [rootOnly, anyone], own: []) == "survey")
        #expect(GeoClueDecision.configuredClient(desktopId: Self.maps, principal: Self.peer(uid: 1000), clients: [rootOnly, anyone], own: []) == "maps",
            "uid 1000 is not root: the next client with that geoclue_id takes it")
        #expect(GeoClueDecision.configuredClient(desktopId: Self.maps, principal: Self.peer(uid: 1000), clients: [rootOnly], own: []) == nil)
    }

    @Test func anAppOfItsOwnIsNeverTakenForAConfiguredClient() {
        let own = ClientSettings(name: "gc-org.gnome.Maps-1000", geoclueId: Self.maps)
        #expect(GeoClueDecision.configuredClient(
            desktopId: Self.maps, principal: Self.peer(uid: 1000), clients: [own], own: [own.name]) == nil)
    }

    @Test func anAppRefusedAClientOfItsOwnIsToldWhatTheAdministratorCanDo() {
        let denied = GeoClueDecision.refusal(.denied, desktopId: Self.maps, uid: 1000)
        #expect(denied.name == GeoClueDecision.Refusal.accessDeniedName)
        #expect(denied.description.contains("[geoclue] new_apps = deny") && denied.description.contains("geoclue_id = org.gnome.Maps"))
        #expect(GeoClueDecision.refusal(.tooMany(8), desktopId: Self.maps, uid: 1000).description.hasPrefix("uid 1000 has 8 GeoClue apps already"))
        #expect(GeoClueDecision.refusal(.full(16384), desktopId: Self.maps, uid: 1000).description.hasPrefix("locationd knows 16384 GeoClue apps"))
    }

    // MARK: What it may have

    @Test(arguments: [
        (GeoClueLevel.none, true), (GeoClueLevel.country, true), (GeoClueLevel.city, true), (GeoClueLevel.neighborhood, true),
        (GeoClueLevel.street, false), (GeoClueLevel.exact, false), (UInt32(7), false), (UInt32(9), false),
    ])
    func cityIsTheReducedPositionAndExactTheFullOne(level: UInt32, reduced: Bool) {
        let filter = GeoClueFilter(level: level, distanceThreshold: 0)
        #expect(filter.reduced == reduced)
        #expect(filter.narrows(.full) == reduced, "a full delivery is narrowed to the client's reduced position only below STREET")
        #expect(!filter.narrows(.reduced), "a reduced delivery is never narrowed again")
    }

    @Test func aClientAllowedWithServicesOnIsServedAndAskIsAsked() {
        #expect(GeoClueDecision.start("maps", status: .whileUsing, services: true) == .serve)
        #expect(GeoClueDecision.start("maps", status: .always, services: true) == .serve)
        #expect(GeoClueDecision.start("maps", status: .ask, services: true) == .ask)
        #expect(GeoClueDecision.start("maps", status: .ask, services: false) == .ask, "the prompt opens; the grant still waits for services")
    }

    @Test func aClientNotAllowedIsRefusedWithTheCommandThatWouldAllowIt() {
        guard case .refuse(let never) = GeoClueDecision.start("maps", status: .never, services: true) else {
            Issue.record("never is refused")
            return
        }
        #expect(never.name == GeoClueDecision.Refusal.accessDeniedName)
        #expect(never.description == "maps is not allowed location (never); the person can allow it with: "
            + Command.authorize(client: "maps", status: .whileUsing).commandLine)
        guard case .refuse(let off) = GeoClueDecision.start("maps", status: .always, services: false) else {
            Issue.record("services off is refused")
            return
        }
        #expect(off.description == "Location Services are off; the person can turn them on with: \(Command.services(on: true).commandLine)")
    }

    @Test func theReducedPositionIsGivenAtOnceWhenTheObjectOrTheClientIsReduced() {
        #expect(GeoClueDecision.givesAtOnce(objectReduced: true, clientReduced: false))
        #expect(GeoClueDecision.givesAtOnce(objectReduced: false, clientReduced: true))
        #expect(!GeoClueDecision.givesAtOnce(objectReduced: false, clientReduced: false))
    }

    @Test func aGrantTakenAwayStopsTheObjectAndAskDoesNot() {
        #expect(GeoClueDecision.stopsOnRegrant(status: .never, services: true))
        #expect(GeoClueDecision.stopsOnRegrant(status: .whileUsing, services: false))
        #expect(!GeoClueDecision.stopsOnRegrant(status: .whileUsing, services: true))
        #expect(!GeoClueDecision.stopsOnRegrant(status: .ask, services: false))
    }

    @Test func theManagerOffersExactOnlyWhileTheSourceHasAFix() {
        #expect(GeoClueDecision.availableLevel(.fix) == GeoClueLevel.exact)
        #expect(GeoClueDecision.availableLevel(.noFix) == GeoClueLevel.none)
        #expect(GeoClueDecision.availableLevel(.connecting) == GeoClueLevel.none)
    }

    // MARK: What is signalled

    @Test func theFirstPositionAfterStartAlwaysGoes() {
        let filter = GeoClueFilter(level: GeoClueLevel.exact, distanceThreshold: 1000)
        #expect(filter.isFresh && filter.isDue(now: 0, timeThreshold: 60))
        #expect(filter.admits(Self.fix(52, 4), accuracy: .full))
    }

    @Test func aTimeThresholdHoldsBackWhatComesTooSoon() {
        var filter = GeoClueFilter(level: GeoClueLevel.exact, distanceThreshold: 0)
        filter.signalled(Self.fix(52, 4), at: 100)
        #expect(!filter.isDue(now: 129.9, timeThreshold: 30))
        #expect(filter.isDue(now: 130, timeThreshold: 30))
        #expect(filter.isDue(now: 100.5, timeThreshold: 0), "0 is no threshold")
    }

    @Test func aDistanceThresholdHoldsBackWhatIsTooNear() {
        var filter = GeoClueFilter(level: GeoClueLevel.exact, distanceThreshold: 100)
        filter.signalled(Self.fix(52, 4), at: 0)
        #expect(!filter.admits(Self.fix(52.0005, 4), accuracy: .full), "about 56 m")
        #expect(filter.admits(Self.fix(52.001, 4), accuracy: .full), "about 111 m")
        var every = GeoClueFilter(level: GeoClueLevel.exact, distanceThreshold: 0)
        every.signalled(Self.fix(52, 4), at: 0)
        #expect(every.admits(Self.fix(52, 4), accuracy: .full), "no threshold: even the same full position goes")
    }

    @Test func theIntervalsReducedPositionAgainIsNotSignalled() {
        var filter = GeoClueFilter(level: GeoClueLevel.city, distanceThreshold: 0)
        filter.signalled(Self.fix(52.01, 4.02), at: 0)
        #expect(!filter.admits(Self.fix(52.01, 4.02), accuracy: .reduced))
        #expect(filter.admits(Self.fix(52.03, 4.02), accuracy: .reduced), "the next interval's cell goes")
    }

    @Test func anotherPortalSessionTakesTheCoarserLevelAndStartsAfresh() {
        var filter = GeoClueFilter(level: GeoClueLevel.exact, distanceThreshold: 0)
        filter.signalled(Self.fix(52, 4), at: 10)
        filter.anotherSession(level: GeoClueLevel.city)
        #expect(filter.reduced && filter.isFresh && filter.lastSignal == nil)
        filter.anotherSession(level: GeoClueLevel.exact)
        #expect(filter.reduced, "no session rides on another's finer level")
    }
}
