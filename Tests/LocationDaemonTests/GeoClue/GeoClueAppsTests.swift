import LocationConfig
import LocationCore
@testable import LocationDaemon
import Testing
import TestSupport

/// The GeoClue apps that became clients of their own.
@Suite(.timeLimit(.minutes(10))) struct GeoClueAppsTests {
    @Test func aNewAppIsANameSafeClientThatAsksAndIsKeptForTheNextStart() throws {
        let dir = try ScratchDirectory("geoclue-apps")
        let apps = GeoClueApps(directory: dir.path, settings: GeoClueSettings())
        let maps = try apps.client(desktopId: "org.gnome.Maps", uid: 1000, configured: []).get()
        #expect(maps.new && maps.app.name == "gc-org_gnome_Maps-1000")
        #expect(try apps.client(desktopId: "org.gnome.Maps", uid: 1000, configured: []).get().new == false)
        // The same name from another desktop id, or a configured client's, gets a suffix.
        let other = try apps.client(desktopId: "org-gnome-Maps", uid: 1000, configured: ["gc-org-gnome-Maps-1000"]).get()
        #expect(other.app.name == "gc-org-gnome-Maps-1000-2")
        let config = apps.overlay(DaemonConfig())
        let client = try #require(config.clients.first { $0.name == maps.app.name })
        #expect(client.authorization == .ask && client.geoclueId == "org.gnome.Maps" && client.log == nil)
        #expect(client.usage == "The app org.gnome.Maps asks for your location over GeoClue.")
        // Read back by the next start.
        let again = GeoClueApps(directory: dir.path, settings: GeoClueSettings())
        #expect(again.apps.map(\.name) == ["gc-org_gnome_Maps-1000", "gc-org-gnome-Maps-1000-2"])
        #expect(again.apps.first?.uid == 1000)
    }

    @Test func denyAndMaxAppsRefuse() throws {
        let dir = try ScratchDirectory("geoclue-apps-refused")
        let denying = GeoClueApps(directory: dir.path, settings: GeoClueSettings(newAppsAsk: false))
        guard case .failure(.denied) = denying.client(desktopId: "a", uid: 1, configured: []) else {
            Issue.record("new_apps = deny made a client")
            return
        }
        let one = GeoClueApps(directory: dir.path, settings: GeoClueSettings(maximumApps: 1))
        _ = try one.client(desktopId: "a", uid: 1, configured: []).get()
        guard case .failure(.tooMany(1)) = one.client(desktopId: "b", uid: 1, configured: []) else {
            Issue.record("max_apps = 1 let a second app of uid 1 in")
            return
        }
        #expect((try? one.client(desktopId: "b", uid: 2, configured: []).get()) != nil, "another uid has its own count")
    }

    /// The list is read row by row (#47): a row cut short, an id the rule refuses, a 5 MB id, a
    /// duplicate are each skipped; every other app is kept, in the old one-line format as in the new one.
    @Test(arguments: [false, true])
    func aBadRowIsSkippedAndTheOthersKept(oneLine: Bool) throws {
        let dir = try ScratchDirectory("geoclue-apps-rows")
        let huge = String(repeating: "h", count: 5 << 20)
        let rows = [
            #"{"name":"gc-a-1000","desktopId":"a","uid":1000}"#,
            #"{"name":"gc-b-1000","desktopId":"b","uid":"#,
            #"{"name":"gc-c-1000","desktopId":"c\u001b[2J","uid":1000}"#,
            #"{"name":"gc-h-1000","desktopId":"\#(huge)","uid":1000}"#,
            #"{"name":"gc-a-1000","desktopId":"a2","uid":1000}"#,
            #"{"name":"gc-d-1001","desktopId":"d","uid":1001}"#,
        ]
        // A row cut short costs the rows after it on the same line: the one-line format (before
        // #47) was only ever written whole, so its test has no cut row.
        let text = #"{"apps":["# + (oneLine ? rows.filter { !$0.hasSuffix(":") } : rows).joined(separator: oneLine ? "," : ",\n") + "]}\n"
        _ = try dir.write(GeoClueApps.fileName, text)
        let apps = GeoClueApps(directory: dir.path, settings: GeoClueSettings())
        #expect(apps.apps.map(\.name) == ["gc-a-1000", "gc-d-1001"])
        // Written back one app a line, within a row's bound.
        _ = try apps.client(desktopId: "e", uid: 1000, configured: []).get()
        let saved = String(decoding: try dir.read(GeoClueApps.fileName), as: UTF8.self)
        #expect(saved.split(separator: "\n").count == 5, "\(saved)")
        #expect(GeoClueApps(directory: dir.path, settings: GeoClueSettings()).apps.map(\.name) == ["gc-a-1000", "gc-d-1001", "gc-e-1000"])
    }

    /// A `never` stays `never` across a restart whose apps list lost the app's row: the engine keeps
    /// the saved state of a client not configured, and the app's next Start gets the same name back.
    @Test func aNeverStaysNeverWhenTheAppsRowIsLost() throws {
        let dir = try ScratchDirectory("geoclue-apps-never")
        let apps = GeoClueApps(directory: dir.path, settings: GeoClueSettings())
        let app = try apps.client(desktopId: "org.example.Junk", uid: 1000, configured: []).get().app
        var engine = Engine(settings: apps.overlay(DaemonConfig()).engineSettings, saved: nil, seed: 1)
        _ = engine.handle(.authorize(client: app.name, status: .never), now: 0)
        let saved = engine.savedState
        // The row is broken on disk; the restart reads no app.
        _ = try dir.write(GeoClueApps.fileName, #"{"apps":[{"name":"\#(app.name)","desktopId":7,"uid":1000}]}"#)
        let restarted = GeoClueApps(directory: dir.path, settings: GeoClueSettings())
        #expect(restarted.apps.isEmpty)
        var again = Engine(settings: restarted.overlay(DaemonConfig()).engineSettings, saved: saved, seed: 2)
        #expect(again.savedState.client(app.name)?.status == .never, "kept while no app names it")
        let back = try restarted.client(desktopId: "org.example.Junk", uid: 1000, configured: []).get()
        #expect(back.new && back.app.name == app.name)
        _ = again.handle(restarted.overlay(DaemonConfig()).engineSettings, now: 1)
        #expect(again.authorization(of: app.name)?.status == .never)
    }

    /// At `max_apps`, the uid's oldest app that never got a decision makes room for a new one; one
    /// that was decided, or another uid's, never does.
    @Test func aUidAtMaxAppsForgetsAnUndecidedAppToMakeRoom() throws {
        let dir = try ScratchDirectory("geoclue-apps-recycle")
        let apps = GeoClueApps(directory: dir.path, settings: GeoClueSettings(maximumApps: 2))
        let decided = try apps.client(desktopId: "decided", uid: 1, configured: []).get().app
        let junk = try apps.client(desktopId: "junk", uid: 1, configured: []).get().app
        _ = try apps.client(desktopId: "other", uid: 2, configured: []).get()
        let undecided: (GeoClueApps.App) -> Bool = { $0.name != decided.name }
        let real = try apps.client(desktopId: "real", uid: 1, configured: [], undecided: undecided).get()
        #expect(real.new)
        #expect(apps.apps.map(\.desktopId) == ["decided", "other", "real"], "junk (\(junk.name)) forgotten")
        guard case .failure(.tooMany(2)) = apps.client(desktopId: "more", uid: 1, configured: [], undecided: { _ in false }) else {
            Issue.record("a decided app was forgotten")
            return
        }
    }

    /// When the whole list is full, one uid's undecided apps make room for another uid's; decided
    /// ones never do.
    @Test func aFullListNeverLocksAnotherUidOutWithJunk() throws {
        let dir = try ScratchDirectory("geoclue-apps-full")
        let apps = GeoClueApps(directory: dir.path, settings: GeoClueSettings(maximumApps: 8), maximumApps: 3)
        for id in ["j1", "j2", "kept"] { _ = try apps.client(desktopId: id, uid: 1, configured: []).get() }
        let undecided: (GeoClueApps.App) -> Bool = { $0.desktopId != "kept" }
        #expect(try apps.client(desktopId: "real", uid: 2, configured: [], undecided: undecided).get().new)
        #expect(apps.apps.map(\.desktopId) == ["j2", "kept", "real"])
        guard case .failure(.full(3)) = apps.client(desktopId: "more", uid: 3, configured: [], undecided: { _ in false }) else {
            Issue.record("a decided app was forgotten to make room")
            return
        }
    }

    /// What bus clients ask is never laid over the configuration (#47): only apps of their own are added.
    @Test func theOverlayAddsAppsAndLeavesConfiguredClientsAsTheFileSays() throws {
        let dir = try ScratchDirectory("geoclue-apps-overlay")
        let apps = GeoClueApps(directory: dir.path, settings: GeoClueSettings())
        let file = DaemonConfig(clients: [ClientSettings(name: "survey", distanceFilter: 50, geoclueId: "survey")])
        #expect(apps.overlay(file) == file)
        _ = try apps.client(desktopId: "org.gnome.Weather", uid: 1000, configured: ["survey"]).get()
        let laid = apps.overlay(file)
        #expect(laid.clients.first == file.clients.first && laid.clients.count == 2, "\(laid.clients)")
    }

    @Test(arguments: [(1, true), (4, true), (5, true), (6, false), (8, false)])
    func levelsUpToANeighbourhoodAreReduced(level: UInt32, reduced: Bool) {
        #expect(GeoClueLevel.wantsReduced(level) == reduced)
    }

    /// As GeoClue 2.6 maps a requested level at Start (#48): clamped to COUNTRY…EXACT, a value
    /// between two defined levels down to the lower.
    @Test(arguments: [
        (0, 1), (1, 1), (2, 1), (3, 1), (4, 4), (5, 5), (6, 6), (7, 6), (8, 8), (9, 8), (99, 8), (UInt32.max, 8),
    ] as [(UInt32, UInt32)])
    func levelsAreServedAsGeoClueMapsThem(requested: UInt32, served: UInt32) {
        #expect(GeoClueLevel.served(requested) == served)
    }

    @Test func aNewClientObjectAsksForACityAsGeoClues() {
        let client = GeoClueClient(path: "/org/freedesktop/GeoClue2/Client/1", owner: ":1.1")
        #expect(client.props.pointee.requested_accuracy_level == GeoClueLevel.city)
    }
}
