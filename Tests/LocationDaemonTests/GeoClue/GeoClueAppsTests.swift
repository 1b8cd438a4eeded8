import LocationCore
@testable import LocationDaemon
import Testing
import TestSupport

/// The GeoClue apps that became clients of their own.
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

    @Test func aFlatpakScopeNamesTheApp() {
        #expect(GeoCluePeer.flatpakId(unit: "app-flatpak-org.gnome.Maps-4242.scope") == "org.gnome.Maps")
        #expect(GeoCluePeer.flatpakId(unit: "app-flatpak-org.gnome.Maps.scope") == "org.gnome.Maps")
        #expect(GeoCluePeer.flatpakId(unit: "app-gnome-org.gnome.Maps-4242.scope") == nil)
        #expect(GeoCluePeer.flatpakId(unit: nil) == nil)
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
