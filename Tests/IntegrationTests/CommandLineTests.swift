import LocationConfig
import LocationCore
import LocationValues
import Testing
import TestSupport

/// `locationd`'s commands, help and exit codes (docs/design.md §4), as a process.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct CommandLineTests {
    @Test func checkConfigPrintsAnEffectiveConfigurationThatReadsBackTheSame() async throws {
        let sandbox = try DaemonSandbox("check")
        let shipped = PackagePaths.root + "/config/locationd.conf"
        let result = try await sandbox.runLocationd(["check-config", "--config", shipped])
        #expect(result.status == 0, "\(result.stderr)")
        let loaded = try DaemonConfig.parse(String(decoding: try FileIO.read(shipped), as: UTF8.self), file: shipped)
        #expect(try DaemonConfig.parse(result.stdout, file: shipped) == loaded)
        #expect(result.stdout.contains("distance_filter = 5"))
        #expect(result.stdout.contains("desired_accuracy = kilometer"))
        #expect(result.stderr.contains("is valid: 1 client"))
    }

    /// #10: the CLI is a small binary on a board — LocationCore, LocationSystem and
    /// LocationClient, not the daemon with its C libraries. The daemon's own `ldd`
    /// is the control: it must name libc, or the test could not see a library.
    /// Neither links libmosquitto or its TLS libraries, nor (#37) libgps, libdbus
    /// or libsystemd: the daemon opens libmosquitto when a client first publishes,
    /// libgps when a gpsd source first connects and libsystemd when the GeoClue
    /// face opens its bus (MQTTRunTests, DaemonRunTests and the GeoClue run tests
    /// use them then).
    @Test func neitherProgramLinksLibgpsLibsystemdOrLibmosquitto() async throws {
        let daemon = try await ChildProcess.run(["/usr/bin/ldd", PackagePaths.product("locationd")])
        #expect(daemon.output.contains("libc.so.6"), "\(daemon.output)")
        for library in ["libgps", "libdbus", "libsystemd", "libmosquitto", "libssl", "libcrypto"] {
            #expect(!daemon.output.contains(library), "\(daemon.output)")
        }
        let cli = try await ChildProcess.run(["/usr/bin/ldd", PackagePaths.product("locationctl")])
        #expect(cli.status == 0, "\(cli.stderr)")
        for library in ["libgps", "libsystemd", "libmosquitto"] {
            #expect(!cli.output.contains(library), "\(cli.output)")
        }
    }

    /// #32: a configuration without a client is valid, but a daemon that gives no one a location
    /// is rarely what was meant: check-config says so (and the shipped file has none of it).
    @Test func checkConfigWarnsWhenNoClientIsConfigured() async throws {
        let sandbox = try DaemonSandbox("check-empty")
        try sandbox.writeNMEAConfig(device: PackagePaths.fixture("walk.nmea"), clients: "")
        let result = try await sandbox.runLocationd(["check-config", "--config", sandbox.configPath])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("locationd: warning: \(sandbox.configPath) configures no client: "), "\(result.stderr)")
        #expect(result.stderr.contains("is valid: 0 clients"))
        let shipped = try await sandbox.runLocationd(["check-config", "--config", PackagePaths.root + "/config/locationd.conf"])
        #expect(!shipped.stderr.contains("warning"), "\(shipped.stderr)")
    }

    @Test func checkConfigListsEveryProblemWithFileAndLineAndExits78() async throws {
        let sandbox = try DaemonSandbox("check-bad")
        let text = """
            [daemon]
            fsync = sometimes
            [client.logger]
            distance_filter = far
            colour = blue
            """
        try FileIO.write(sandbox.configPath, Array(text.utf8))
        let result = try await sandbox.runLocationd(["check-config", "--config", sandbox.configPath])
        #expect(result.status == 78, "EX_CONFIG")
        #expect(result.stdout.isEmpty)
        for line in [2, 4, 5] {
            #expect(result.stderr.contains("\(sandbox.configPath):\(line)"), "line \(line): \(result.stderr)")
        }
        #expect(result.stderr.contains("always"), "the accepted values of fsync are named")
        #expect(result.stderr.contains("has 3 problems"))
    }

    @Test func runWithABadConfigurationRefusesToStartAndSaysWhy() async throws {
        let sandbox = try DaemonSandbox("run-bad")
        try FileIO.write(sandbox.configPath, Array("[daemon]\nfsync = sometimes\n".utf8))
        let result = try await sandbox.runLocationd(["run", "--config", sandbox.configPath])
        #expect(result.status == 78, "EX_CONFIG: the unit's RestartPreventExitStatus=78 does not restart it")
        #expect(result.stderr.contains("<3>daemon: \(sandbox.configPath):2"))
        #expect(result.stderr.contains("not started"))
    }

    /// A program socket's `socket_group` is looked up on this machine: one
    /// that does not exist stops `run` and `check-config` alike, naming the key.
    @Test func aProgramSocketGroupThatDoesNotExistIsAConfigurationError() async throws {
        let sandbox = try DaemonSandbox("run-no-group")
        let text = """
            [daemon]
            socket = \(sandbox.socketPath)
            state_dir = \(sandbox.stateDirectory)
            log_dir = \(sandbox.logDirectory)
            [client.qgis]
            gpsd_socket = \(sandbox.file("qgis.gpsd.sock"))
            socket_mode = 0660
            socket_group = locationd-test-no-such-group
            """
        try FileIO.write(sandbox.configPath, Array(text.utf8))
        let checked = try await sandbox.runLocationd(["check-config", "--config", sandbox.configPath])
        #expect(checked.status == 78)
        #expect(checked.stdout.isEmpty)
        #expect(checked.stderr.contains("[client.qgis] socket_group = locationd-test-no-such-group: there is no group"), "\(checked.stderr)")
        #expect(checked.stderr.contains("has 1 problem"))
        let run = try await sandbox.runLocationd(["run", "--config", sandbox.configPath])
        #expect(run.status == 78, "EX_CONFIG")
        #expect(run.stderr.contains("[client.qgis] socket_group = locationd-test-no-such-group"), "\(run.stderr)")
        #expect(run.stderr.contains("not started"))
        #expect(!FileIO.exists(sandbox.file("qgis.gpsd.sock")))
    }

    @Test func runWithAMissingConfigurationSaysHowToFixIt() async throws {
        let sandbox = try DaemonSandbox("run-missing")
        let result = try await sandbox.runLocationd(["run", "--config", sandbox.file("nope.conf")])
        #expect(result.status == 78)
        #expect(result.stderr.contains("No such file or directory"))
        #expect(result.stderr.contains("--config PATH"))
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command \"frobnicate\""),
        (["run", "--bogus"], "unknown option --bogus for run"),
        (["replay"], "missing FILE"),
        (["check-config", "extra"], "unexpected argument \"extra\""),
        ([], "missing command"),
    ])
    func usageErrorsExitTwoWithTheSynopsis(arguments: [String], message: String) async throws {
        let sandbox = try DaemonSandbox("usage")
        let result = try await sandbox.runLocationd(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message))
        #expect(result.stderr.contains("usage: locationd"))
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [["--help"], ["run", "--help"], ["replay", "--help"], ["check-config", "-h"], ["help", "replay"]])
    func helpGoesToStdoutAndExitsZero(arguments: [String]) async throws {
        let sandbox = try DaemonSandbox("help")
        let result = try await sandbox.runLocationd(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: locationd"))
        #expect(result.stderr.isEmpty)
    }

    @Test func versionPrintsTheVersion() async throws {
        let sandbox = try DaemonSandbox("version")
        let result = try await sandbox.runLocationd(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "locationd \(LocationdVersion.string)\n")
    }
}
