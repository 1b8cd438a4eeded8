import Testing
@testable import LocationConfig
@testable import LocationCore

@Suite struct DaemonConfigTests {
    let file = "/etc/locationd/locationd.conf"

    func parse(_ text: String, environment: [String: String] = [:]) throws(ConfigErrors) -> DaemonConfig {
        try DaemonConfig.parse(text, file: file, environment: environment)
    }

    func errors(_ text: String) -> [ConfigError] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.errors
        }
    }

    @Test func emptyFileGivesTheDefaults() throws {
        let config = try parse("")
        #expect(config.socket == "/run/locationd/control.sock")
        #expect(config.socketGroup == "locationd")
        #expect(config.stateDirectory == "/var/lib/locationd")
        #expect(config.logDirectory == "/var/log/locationd")
        #expect(config.services)
        #expect(config.fsync == .always)
        #expect(config.source == .gpsd(host: "127.0.0.1", port: 2947))
        #expect(config.clients.isEmpty)
        #expect(config.restricted.isEmpty)
        #expect(config.statePath == "/var/lib/locationd/state.json")
        #expect(config.auditLogPath == "/var/log/locationd/audit.jsonl")
    }

    @Test func systemdDirectoriesAreTheDefaultPaths() throws {
        let env = [
            "STATE_DIRECTORY": "/var/lib/locationd:/var/lib/other",
            "LOGS_DIRECTORY": "/var/log/locationd-test",
            "RUNTIME_DIRECTORY": "/run/locationd-test",
        ]
        let config = try parse("[client.a]\nlog = a.jsonl\n", environment: env)
        #expect(config.stateDirectory == "/var/lib/locationd")
        #expect(config.logDirectory == "/var/log/locationd-test")
        #expect(config.socket == "/run/locationd-test/control.sock")
        #expect(config.logPath(forClient: "a") == "/var/log/locationd-test/a.jsonl")
    }

    @Test func pathsInTheFileWinOverTheEnvironment() throws {
        let config = try parse(
            "[daemon]\nstate_dir = /srv/state/\nlog_dir = /srv/logs\nsocket = /tmp/l.sock\n",
            environment: ["STATE_DIRECTORY": "/x", "LOGS_DIRECTORY": "/y", "RUNTIME_DIRECTORY": "/z"])
        #expect(config.stateDirectory == "/srv/state")
        #expect(config.logDirectory == "/srv/logs")
        #expect(config.socket == "/tmp/l.sock")
    }

    @Test func readsEveryClientKey() throws {
        let config = try parse("""
            [client.survey-1]
            log = /data/survey.jsonl
            distance_filter = none
            desired_accuracy = 25.5
            authorization = while-using
            precise = off
            updating = yes
            in_use = false
            usage = "Shows #1 where you are"
            usage_always = Tracks in the background
            purpose.survey = Precise track
            purpose.map-edit = Editing the map
            once_grace = 10
            reduced_grid = 200
            reduced_interval = 0
            locate_timeout = 2.5
            """)
        let client = try #require(config.client(named: "survey-1"))
        #expect(client == ClientSettings(
            name: "survey-1", log: "/data/survey.jsonl", distanceFilter: nil, desiredAccuracy: .meters(25.5),
            usage: "Shows #1 where you are", usageAlways: "Tracks in the background", precise: false,
            purposes: ["survey": "Precise track", "map-edit": "Editing the map"], authorization: .whileUsing,
            updating: true, inUse: false, onceGrace: 10, reducedGrid: 200, reducedInterval: 0, locateTimeout: 2.5))
    }

    @Test func clientDefaultsFollowTheSpec() throws {
        let client = try #require(try parse("[client.bare]\n").clients.first)
        #expect(client == ClientSettings(name: "bare"))
        #expect(client.log == nil && client.distanceFilter == nil && client.desiredAccuracy == .best)
        #expect(client.onceGrace == 60 && client.reducedGrid == 2000 && client.reducedInterval == 900 && client.locateTimeout == 30)
    }

    @Test func errorNamesFileLineSectionKeyValueAndAcceptedValues() throws {
        let text = String(repeating: "\n", count: 12) + "[client.logger]\ndesired_accuracy = kilometre\n"
        let found = errors(text)
        let error = try #require(found.first)
        #expect(found.count == 1)
        #expect(error.description == """
            /etc/locationd/locationd.conf:14: [client.logger] desired_accuracy = "kilometre": accepted values are \
            best-for-navigation, best, ten-meters, hundred-meters, kilometer, three-kilometers, reduced, or a number of metres
            """)
        #expect(error.kind == .badValue)
        #expect(error.file == file && error.line == 14 && error.section == "client.logger")
        #expect(error.key == "desired_accuracy" && error.value == "kilometre")
    }

    @Test func collectsEveryProblemInLineOrder() {
        let found = errors("""
            [daemon]
            fsync = sometimes
            colour = blue
            [source]
            port = 99999
            [client.a]
            precise = maybe
            [client.a]
            [policy]
            restricted = a, nobody
            [extra]
            """)
        #expect(found.map(\.line) == [2, 3, 5, 7, 8, 10, 11])
        #expect(found.map(\.kind) == [.badValue, .unknownKey, .badValue, .badValue, .duplicateSection, .badValue, .unknownSection])
    }

    @Test(arguments: [
        ("daemon", "socket", "relative.sock", "an absolute path"),
        ("daemon", "socket", "/" + String(repeating: "s", count: 107), "at most 107 bytes"),
        ("daemon", "state_dir", "", "an absolute path"),
        ("daemon", "socket_group", "bad group", "a group name"),
        ("daemon", "services", "maybe", "on or off"),
        ("daemon", "fsync", "never", "always or interval"),
        ("source", "type", "serial", "gpsd or nmea"),
        ("source", "host", "", "a host name or IP address"),
        ("source", "port", "0", "from 1 to 65535"),
        ("source", "port", "0x50", "from 1 to 65535"),
        ("source", "baud", "9601", "4800"),
        ("client.c", "distance_filter", "-1", "none, or a number of metres"),
        ("client.c", "distance_filter", "inf", "none, or a number of metres"),
        ("client.c", "distance_filter", "5m", "none, or a number of metres"),
        ("client.c", "desired_accuracy", "0", "or a number of metres"),
        ("client.c", "desired_accuracy", "nan", "or a number of metres"),
        ("client.c", "authorization", "restricted", "ask, never, while-using, or always"),
        ("client.c", "authorization", "allow", "ask, never, while-using, or always"),
        ("client.c", "precise", "", "on or off"),
        ("client.c", "log", "../escape.jsonl", "a file name inside log_dir"),
        ("client.c", "log", "dir/", "a file name inside log_dir"),
        ("client.c", "once_grace", "-5", "0 or more"),
        ("client.c", "reduced_grid", "150", "at least 200"),
        ("client.c", "reduced_interval", "1e400", "0 or more"),
        ("client.c", "locate_timeout", "0", "greater than 0"),
        ("client.c", "purpose.survey", "", "a sentence saying why"),
    ])
    func refusesBadValuesNamingTheAcceptedOnes(section: String, key: String, value: String, accepted: String) throws {
        let found = errors("[\(section)]\n\(key) = \(value)\n")
        let error = try #require(found.first)
        #expect(found.count == 1)
        #expect(error.kind == .badValue)
        #expect(error.line == 2 && error.section == section && error.key == key && error.value == value)
        #expect(error.accepted?.contains(accepted) == true, "\(error)")
        #expect(error.description.hasPrefix("\(file):2: [\(section)] \(key) = \"\(value)\": accepted values are "))
    }

    @Test func restrictedAuthorizationSaysWhereRestrictionComesFrom() throws {
        let error = try #require(errors("[client.c]\nauthorization = restricted\n").first)
        #expect(error.description.hasSuffix("(restricted is set by [policy] restricted, not per client)"))
    }

    @Test func unknownKeySuggestsTheNearestAndListsAll() throws {
        let error = try #require(errors("[client.logger]\ndistanse_filter = 5\n").first)
        #expect(error.kind == .unknownKey)
        #expect(error.description.hasPrefix(
            "\(file):2: [client.logger] unknown key \"distanse_filter\" (did you mean distance_filter?): accepted keys are log, distance_filter,"))
    }

    @Test(arguments: [
        ("[client]\n", "a client needs a name"),
        ("[client.bad name]\n", "a client name is 1 to 64 letters"),
        ("[clients.logger]\n", "did you mean [client.logger]?"),
        ("[cleint.logger]\n", "did you mean [client.logger]?"),
        ("[Client]\n", "did you mean [client.NAME]?"),
        ("[polcy]\n", "did you mean [policy]?"),
        ("[deamon]\n", "did you mean [daemon]?"),
    ])
    func unknownSectionsSayWhatIsAccepted(text: String, note: String) throws {
        let error = try #require(errors(text).first)
        #expect(error.kind == .unknownSection)
        #expect(error.description.contains(note))
        #expect(error.description.hasSuffix("accepted sections are [daemon], [source], [source.NAME], [client.NAME], [geoclue] and [policy]"))
    }

    @Test func restrictedTakesSpaceOrCommaSeparatedClientNames() throws {
        let config = try parse("""
            [policy]
            restricted = b,a  c, a
            [client.a]
            [client.b]
            [client.c]
            [client.d]
            """)
        #expect(config.restricted == ["b", "a", "c"])
        #expect(config.engineSettings.restricted == ["a", "b", "c"])
        #expect(config.engineSettings.policySource == "[policy] restricted in \(file)")
    }

    @Test func restrictedNamesMustBeConfiguredClients() throws {
        let found = errors("[client.logger]\n[policy]\nrestricted = logger loger\n")
        let error = try #require(found.first)
        #expect(found.count == 1)
        #expect(error.description == """
            \(file):3: [policy] restricted = "loger": accepted values are client names: logger \
            (every restricted name must be a configured client)
            """)
    }

    @Test func nmeaSourceNeedsADevice() throws {
        let error = try #require(errors("[source]\ntype = nmea\nbaud = 4800\n").first)
        #expect(error.kind == .missingKey)
        #expect(error.line == 2)
        #expect(error.description.contains("type = nmea needs device = PATH"))
        let config = try parse("[source]\ntype = nmea\ndevice = /dev/ttyACM0\nbaud = 115200\nhost = ignored.example\n")
        #expect(config.source == .nmea(device: "/dev/ttyACM0", baud: 115_200))
    }

    @Test func relativeLogsResolveAgainstLogDirAndAnOverride() throws {
        let config = try parse("""
            [daemon]
            log_dir = /var/log/l
            [client.a]
            log = a.jsonl
            [client.b]
            log = /data/b.jsonl
            [client.c]
            log = sub/c.jsonl
            [client.d]
            """)
        #expect(config.logPath(forClient: "a") == "/var/log/l/a.jsonl")
        #expect(config.logPath(forClient: "b") == "/data/b.jsonl")
        #expect(config.logPath(forClient: "c") == "/var/log/l/sub/c.jsonl")
        #expect(config.logPath(forClient: "d") == nil)
        #expect(config.logPath(forClient: "nobody") == nil)
        #expect(config.logPath(forClient: "a", logDirectory: "/tmp/r") == "/tmp/r/a.jsonl")
        #expect(config.logPath(forClient: "b", logDirectory: "/tmp/r/") == "/tmp/r/b.jsonl")
    }

    @Test func twoClientsCannotShareALogFile() throws {
        let found = errors("""
            [daemon]
            log_dir = /var/log/l
            [client.a]
            log = same.jsonl
            [client.b]
            log = /var/log/l/same.jsonl
            [client.c]
            log = audit.jsonl
            """)
        #expect(found.map(\.kind) == [.conflict, .conflict])
        #expect(found.map(\.line) == [6, 8])
        #expect(found[0].description.contains("already [client.a]'s log: give each client its own log file"))
        #expect(found[1].description.contains("already the audit log"))
    }

    @Test func renderedTextParsesBackToTheSameConfiguration() throws {
        let config = try parse("""
            [daemon]
            socket_group =
            services = off
            fsync = interval
            [source]
            type = nmea
            device = /dev/ttyUSB0
            [client.one]
            log = one.jsonl
            distance_filter = 0.25
            desired_accuracy = 1e-05
            usage = "  spaced # and \\"quoted\\"  "
            purpose.b = second
            purpose.a = first
            [client.two]
            desired_accuracy = three-kilometers
            authorization = always
            [policy]
            restricted = two
            """)
        let rendered = config.rendered
        let again = try DaemonConfig.parse(rendered, file: file, environment: ["STATE_DIRECTORY": "/elsewhere"])
        #expect(again == config)
        #expect(config.socketGroup == nil)
        #expect(config.client(named: "one")?.usage == #"  spaced # and "quoted"  "#)
        for key in ["socket", "state_dir", "log_dir", "services", "fsync", "type", "device", "baud", "log",
                    "distance_filter", "desired_accuracy", "authorization", "precise", "updating", "in_use", "usage",
                    "usage_always", "purpose.a", "once_grace", "reduced_grid", "reduced_interval", "locate_timeout",
                    "restricted"] {
            #expect(rendered.contains("\n\(key) ="), "rendered text lacks \(key)")
        }
    }
}
