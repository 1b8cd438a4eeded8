import Testing
@testable import LocationCore

/// The `[client.NAME]` keys that serve programs.
extension DaemonConfigTests {
    @Test func readsEveryProgramKeyAndAnEmptyLogIsNoLog() throws {
        let config = try parse("""
            [client.qgis]
            gpsd_socket = /run/locationd/qgis.gpsd.sock
            gpsd_port = 2948
            log =
            allow_users = alice, 1001
            allow_groups = plugdev
            [client.geoclue]
            nmea_socket = /run/locationd/geoclue.nmea
            precise = off
            [client.plain]
            """)
        let qgis = try #require(config.client(named: "qgis"))
        #expect(qgis.programs == ProgramSettings(
            gpsdSocket: "/run/locationd/qgis.gpsd.sock", gpsdPort: 2948, allowUsers: ["alice", "1001"], allowGroups: ["plugdev"]))
        #expect(qgis.log == nil)
        #expect(!qgis.programs.allowsEveryone)
        let geoclue = try #require(config.client(named: "geoclue"))
        #expect(geoclue.programs.nmeaSocket == "/run/locationd/geoclue.nmea" && geoclue.programs.allowsEveryone)
        #expect(config.client(named: "plain")?.programs.servesPrograms == false)
        #expect(try parse(config.rendered) == config)
    }

    @Test func badProgramValuesNameTheAcceptedOnes() {
        let found = errors("""
            [client.a]
            gpsd_socket = relative.sock
            gpsd_port = 70000
            allow_users = al!ce
            """)
        #expect(found.map(\.line) == [2, 3, 4])
        #expect(found[0].description.contains("an absolute path"))
        #expect(found[1].description.contains("a TCP port from 1 to 65535 (served on 127.0.0.1 and ::1 only)"))
        #expect(found[2].description.contains("user names or numbers"))
    }

    @Test func twoClientsOrTheControlSocketCannotShareAProgramSocketOrPort() {
        let found = errors("""
            [daemon]
            socket = /run/l/control.sock
            [client.a]
            gpsd_socket = /run/l/a.sock
            gpsd_port = 2948
            [client.b]
            nmea_socket = /run/l/a.sock
            gpsd_port = 2948
            [client.c]
            gpsd_socket = /run/l/control.sock
            """)
        #expect(found.map(\.kind) == [.conflict, .conflict, .conflict])
        #expect(found.map(\.line) == [7, 8, 10])
        #expect(found[0].description.contains("already [client.a] gpsd_socket"))
        #expect(found[1].description.contains("already [client.a]'s"))
        #expect(found[2].description.contains("already the control socket"))
    }
}
