import Testing
@testable import LocationConfig
@testable import LocationCore

/// `[source]` and `[source.NAME]` (docs/sources.md, "Several sources").
@Suite struct SourceSectionsTests {
    static let file = "/etc/locationd/locationd.conf"
    static let local = SourceConfig.defaultGPSD

    static func parse(_ text: String) throws(ConfigErrors) -> DaemonConfig {
        try DaemonConfig.parse(text, file: file)
    }

    static func errors(_ text: String) -> [ConfigError] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.errors
        }
    }

    static let valid: [(text: String, sources: [NamedSource], failover: Double)] = [
        ("", [NamedSource(local)], 3),
        ("[source]\nfailover = 5\n", [NamedSource(local)], 5),
        ("[source]\ntype = nmea\ndevice = /dev/ttyACM0\n", [NamedSource(.nmea(device: "/dev/ttyACM0", baud: 9600))], 3),
        (
            "[source.gps]\n[source.gnss]\ntype = nmea\ndevice = /dev/ttyUSB1\nbaud = 4800\n",
            [NamedSource(name: "gps", local), NamedSource(name: "gnss", .nmea(device: "/dev/ttyUSB1", baud: 4800))], 3
        ),
        // `[source]` with only failover beside named sources sets failover and is no source itself.
        ("[source]\nfailover = 2\n[source.remote]\nhost = 10.0.0.2\n", [NamedSource(name: "remote", .gpsd(host: "10.0.0.2", port: 2947))], 2),
        // `[source]` with an endpoint key is the source named default, listed first wherever it is written.
        (
            "[source.modem]\ntype = nmea\ndevice = /dev/ttyUSB2\n[source]\nport = 2948\n",
            [NamedSource(.gpsd(host: "127.0.0.1", port: 2948)), NamedSource(name: "modem", .nmea(device: "/dev/ttyUSB2", baud: 9600))], 3
        ),
        ("[source.default]\nport = 3000\n", [NamedSource(.gpsd(host: "127.0.0.1", port: 3000))], 3),
        // One gpsd host on two ports is two gpsds.
        ("[source.a]\n[source.b]\nport = 2948\n", [NamedSource(name: "a", local), NamedSource(name: "b", .gpsd(host: "127.0.0.1", port: 2948))], 3),
    ]

    @Test(arguments: valid.indices)
    func sourceSectionsGiveTheirSources(_ i: Int) throws {
        let (text, sources, failover) = Self.valid[i]
        let config = try Self.parse(text)
        #expect(config.sources == sources)
        #expect(config.failover == failover)
        // check-config's output reads back as the same configuration.
        #expect(try Self.parse(config.rendered).sources == sources)
        #expect(try Self.parse(config.rendered).failover == failover)
    }

    static let invalid: [(text: String, line: Int, says: String)] = [
        ("[source.a]\n[source.b]\n", 2, "[source.b] reads gpsd at 127.0.0.1:2947 (one connection to a gpsd brings every receiver it has), as [source.a] does already"),
        ("[source]\nport = 2947\n[source.b]\nhost = 127.0.0.1\n", 4, "[source.b] reads gpsd at 127.0.0.1:2947"),
        ("[source.a]\nhost = GPS.local\n[source.b]\nhost = gps.local\n", 4, "as [source.a] does already"),
        (
            "[source]\ntype = nmea\ndevice = /dev/ttyUSB0\n[source.b]\ntype = nmea\ndevice = /dev/ttyUSB0/\n", 6,
            "[source.b] reads /dev/ttyUSB0 (two readers of one device would each get part of its sentences), as [source] does already"
        ),
        ("[source.a]\nfailover = 5\n", 2, "[source.a] failover: one failover holds for every receiver of every source; set it in [source]"),
        ("[source.a]\nbaudrate = 4800\n", 2, "accepted keys are type, host, port, device, or baud"),
        ("[source.a]\ntype = nmea\n", 2, "[source.a] type = nmea needs device = PATH"),
        ("[source.a]\ntype = serial\n", 2, "[source.a] type = \"serial\": accepted values are gpsd or nmea"),
        ("[source]\nport = 2948\n[source.default]\nport = 2949\n", 3, "[source] is the source named default already"),
        ("[source.a.b]\n", 1, "a source name is 1 to 32 letters, digits, - or _"),
        ("[source.]\n", 1, "a source name is 1 to 32 letters"),
        ("[sources.gnss]\n", 1, "did you mean [source.gnss]?"),
        ("[soruce.gnss]\n", 1, "did you mean [source.gnss]?"),
        ("[sources]\n", 1, "did you mean [source]?"),
    ]

    @Test(arguments: invalid.indices)
    func badSourceSectionsSayWhatIsWrong(_ i: Int) throws {
        let (text, line, says) = Self.invalid[i]
        let found = Self.errors(text)
        let error = try #require(found.first, "\(text)")
        #expect(found.count == 1, "\(found)")
        #expect(error.line == line)
        #expect(error.description.contains(says), "\(error)")
    }
}
