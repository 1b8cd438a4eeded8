import Testing

@testable import LocationCore

/// `[geoclue]` and `geoclue_id` (docs/locationd.conf.5.md, docs/geoclue.md).
@Suite struct GeoClueConfigTests {
    @Test func noSectionIsNoFaceAndAnEmptyOneHasTheDefaults() throws {
        #expect(try DaemonConfig.parse("", file: "t.conf").geoclue == nil)
        let on = try #require(try DaemonConfig.parse("[geoclue]\n", file: "t.conf").geoclue)
        #expect(on == GeoClueSettings())
        #expect(on.bus == .system && on.maximumApps == 64 && on.newAppsAsk && on.precise)
    }

    @Test func everyKeyIsRead() throws {
        let text = """
            [geoclue]
            bus = unix:path=/run/test/bus
            max_apps = 3
            new_apps = deny
            precise = off
            usage = %s wants to know
            [client.maps]
            geoclue_id = org.gnome.Maps
            app_users = 1000
            """
        let config = try DaemonConfig.parse(text, file: "t.conf")
        let settings = try #require(config.geoclue)
        #expect(settings.bus == .address("unix:path=/run/test/bus"))
        #expect(settings.maximumApps == 3 && !settings.newAppsAsk && !settings.precise)
        #expect(settings.usage == "%s wants to know")
        #expect(config.clients.first?.geoclueId == "org.gnome.Maps")
    }

    @Test(arguments: [
        ("[geoclue]\nbus = session\n", "bus"), ("[geoclue]\nmax_apps = 0\n", "max_apps"),
        ("[geoclue]\nnew_apps = maybe\n", "new_apps"), ("[geoclue]\nagents = on\n", "agents"),
        ("[client.a]\ngeoclue_id = has space\n", "geoclue_id"),
    ])
    func aBadValueOrKeyIsAnError(text: String, key: String) {
        #expect(throws: ConfigErrors.self) { try DaemonConfig.parse(text, file: "t.conf") }
        do {
            _ = try DaemonConfig.parse(text, file: "t.conf")
        } catch {
            #expect(error.description.contains(key), "\(error)")
        }
    }
}
