import Testing
@testable import LocationConfig
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

    @Test func aGPSDPortIsNotThePortOfAGPSDOnThisMachineThatTheDaemonReads() throws {
        // The default source is gpsd at 127.0.0.1:2947: run could not bind it, and check-config says so.
        let found = errors("""
            [client.a]
            gpsd_port = 2947
            """)
        #expect(found.map(\.kind) == [.conflict])
        #expect(found.first?.description.contains("already the port of the gpsd locationd reads ([source] gpsd 127.0.0.1:2947)") == true)
        let named = errors("""
            [source.near]
            host = localhost
            port = 3000
            [client.a]
            gpsd_port = 3000
            """)
        #expect(named.first?.description.contains("([source.near] gpsd localhost:3000)") == true)
        // A gpsd on another machine leaves this machine's port free.
        _ = try parse("""
            [source]
            host = 192.0.2.7
            port = 2947
            [client.a]
            gpsd_port = 2947
            """)
    }

    @Test func socketModeAndGroupAreReadAsTheUnixSocketsFileModeAndGroup() throws {
        let config = try parse("""
            [client.qgis]
            gpsd_socket = /run/locationd/qgis.gpsd.sock
            nmea_socket = /run/locationd/qgis.nmea
            socket_mode = 0660
            socket_group = gpsclients
            [client.open]
            gpsd_socket = /run/locationd/open.gpsd.sock
            socket_mode = 606
            socket_group = 1234
            [client.plain]
            nmea_socket = /run/locationd/plain.nmea
            socket_mode =
            socket_group =
            """)
        let qgis = try #require(config.client(named: "qgis")?.programs)
        #expect(qgis.socketMode == 0o660 && qgis.socketGroup == "gpsclients")
        let open = try #require(config.client(named: "open")?.programs)
        #expect(open.socketMode == 0o606 && open.socketGroup == "1234")
        // Empty: the defaults, 0666 and the daemon's own group.
        let plain = try #require(config.client(named: "plain")?.programs)
        #expect(plain.socketMode == ProgramSettings.defaultSocketMode && plain.socketMode == 0o666 && plain.socketGroup == nil)
        // check-config writes them back as the file does.
        #expect(config.rendered.contains("socket_mode = 0660\nsocket_group = gpsclients\n"))
        #expect(config.rendered.contains("socket_mode = 0666\nsocket_group =\n"))
        #expect(try parse(config.rendered) == config)
    }

    @Test(arguments: [
        ("0668", "an octal file mode from 0600 to 0777"),
        ("rw-rw----", "an octal file mode from 0600 to 0777"),
        ("0x1b6", "an octal file mode from 0600 to 0777"),
        ("00660", "an octal file mode from 0600 to 0777"),
        ("-660", "an octal file mode from 0600 to 0777"),
        ("1777", "setuid, setgid and sticky bits mean nothing on a socket"),
        ("4666", "setuid, setgid and sticky bits mean nothing on a socket"),
        ("0066", "the owner, the daemon's user, needs read and write"),
        ("0466", "the owner, the daemon's user, needs read and write"),
    ])
    func aBadSocketModeIsRefusedSayingWhy(value: String, says: String) {
        let found = errors("""
            [client.a]
            gpsd_socket = /run/l/a.sock
            socket_mode = \(value)
            """)
        #expect(found.count == 1)
        #expect(found.first?.kind == .badValue && found.first?.key == "socket_mode" && found.first?.line == 3)
        #expect(found.first?.description.contains("[client.a] socket_mode = ") == true)
        #expect(found.first?.description.contains(says) == true, "\(found)")
    }

    @Test func aBadSocketGroupNameIsRefused() {
        let found = errors("""
            [client.a]
            nmea_socket = /run/l/a.nmea
            socket_group = gps clients
            """)
        #expect(found.map(\.key) == ["socket_group"])
        #expect(found.first?.description.contains("a group name or number, or nothing for the daemon's own group") == true)
    }

    @Test func socketModeOrGroupWithoutAUnixSocketIsAMistakeNamed() {
        let found = errors("""
            [client.tcp]
            gpsd_port = 2948
            socket_mode = 0660
            socket_group = adm
            [client.none]
            log = none.jsonl
            socket_mode = 0600
            """)
        #expect(found.map(\.kind) == [.conflict, .conflict, .conflict])
        #expect(found.map(\.line) == [3, 4, 7])
        #expect(found[0].description.contains("[client.tcp] socket_mode = 0660 sets the file of gpsd_socket and nmea_socket"))
        #expect(found[1].description.contains("gpsd_port is TCP and has no file"))
    }
}
