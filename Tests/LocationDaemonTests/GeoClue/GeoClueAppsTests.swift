import LocationCore
@testable import LocationDaemon
import Testing
import TestSupport

/// The GeoClue apps that became clients of their own, and what started bus clients ask of them.
@Suite struct GeoClueAppsTests {
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

    @Test func aRequestIsLaidOverTheConfiguredClientNeverBelowItsFilter() throws {
        let dir = try ScratchDirectory("geoclue-apps-request")
        let apps = GeoClueApps(directory: dir.path, settings: GeoClueSettings())
        let file = DaemonConfig(clients: [ClientSettings(name: "survey", distanceFilter: 50, geoclueId: "survey")])
        let changed = apps.setRequest("survey", .init(reduced: true, distance: 10))
        let repeated = apps.setRequest("survey", .init(reduced: true, distance: 10))
        #expect(changed && !repeated, "no change, no reload")
        var laid = try #require(apps.overlay(file).clients.first)
        #expect(laid.desiredAccuracy == .reduced && laid.distanceFilter == 50)
        _ = apps.setRequest("survey", .init(reduced: false, distance: 200))
        laid = try #require(apps.overlay(file).clients.first)
        #expect(laid.desiredAccuracy == .best && laid.distanceFilter == 200)
        _ = apps.setRequest("survey", nil)
        #expect(apps.overlay(file) == file)
    }

    @Test(arguments: [(1, true), (4, true), (5, true), (6, false), (8, false)])
    func levelsUpToANeighbourhoodAreReduced(level: UInt32, reduced: Bool) {
        #expect(GeoClueLevel.wantsReduced(level) == reduced)
    }
}
