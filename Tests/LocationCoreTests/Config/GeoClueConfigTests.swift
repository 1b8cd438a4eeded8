import Testing

@testable import LocationConfig
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

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

/// The GeoClue face's part of `status`: read back as written, and another user's apps hidden.
@Suite struct GeoClueSectionTests {
    static let section = GeoClueSection(
        bus: "system", connected: true,
        clients: [
            "gc-maps-1000": .init(desktopId: "org.gnome.Maps", uid: 1000, peers: [.init(busName: ":1.7", pid: 42, uid: 1000, unit: "app.scope")]),
            "survey": .init(desktopId: "survey", uid: nil, peers: []),
        ])

    @Test func itIsReadBackAsWritten() throws {
        let json = JSONValue.object(Self.section.jsonMembers)
        let read = try #require(try GeoClueSection.read(json) as? GeoClueSection)
        #expect(read == Self.section)
        #expect(json["geoclue"]?["clients"]?["survey"]?["held"] == .bool(false))
    }

    @Test func anUnprivilegedReaderSeesItsOwnAppsOnly() {
        let seen = Self.section.seen(through: Disclosure(tier: .unprivileged, services: true, apps: ["survey"]))
        #expect(seen?.clients.keys.sorted() == ["survey"])
        #expect(Self.section.seen(through: Disclosure(tier: .privileged, services: true)) == Self.section)
    }
}
