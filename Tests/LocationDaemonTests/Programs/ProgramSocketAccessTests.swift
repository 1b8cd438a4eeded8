#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationSystem
@testable import LocationDaemon
import Testing
import TestSupport

/// `socket_mode` and `socket_group`: the program sockets' files get them,
/// and the kernel keeps out whom they exclude before the daemon sees a thing.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ProgramSocketAccessTests {
    /// A program run as nobody (uid and gid 65534, no other groups) connecting
    /// to `path`: `EACCES` when the file keeps it out, else the greeting it read.
    static let connectAsNobody = [
        "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
        """
        import errno, socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(sys.argv[1])
        except OSError as e:
            print(errno.errorcode.get(e.errno, str(e.errno)))
            sys.exit(0)
        s.settimeout(20)
        print("connected " + s.recv(4096).decode().strip())
        """,
    ]

    static func fileInfo(_ path: String) throws -> stat {
        var info = stat()
        try #require(lstat(path, &info) == 0, "stat \(path): \(String(cString: strerror(errno)))")
        return info
    }

    @Test func theSocketHasTheDefaultMode0666AndTheDaemonsGroup() async throws {
        let running = try ProgramServerTests.Running("programs-mode-default", limits: ControlServer.Limits())
        let info = try Self.fileInfo(running.socket)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o7777 == 0o666)
        #expect(info.st_gid == getegid())
        await running.stop()
    }

    @Test(
        .enabled(if: getuid() == 0, "needs root, to run a program as nobody and give the socket to any group"),
        .enabled(if: ExternalTool.isAvailable("setpriv", "python3"), "needs setpriv (util-linux) and python3"))
    func aPeerTheFileModeKeepsOutGetsEACCESAndTheProgramsWatchingLoseNothing() async throws {
        let adm = try #require(try? SocketGroup.lookup("adm").get(), "Debian has an adm group")
        let running = try ProgramServerTests.Running(
            "programs-mode-closed", limits: ControlServer.Limits(), keys: ["socket_mode = 0660", "socket_group = adm"])
        // mkdtemp made the directory 0700; only the socket's own mode is under test.
        chmod(running.directory.path, 0o755)
        let info = try Self.fileInfo(running.socket)
        #expect(info.st_mode & 0o7777 == 0o660)
        #expect(info.st_gid == adm.gid)
        #expect(running.server.warnings.isEmpty)

        let program = try ProgramSocket(path: running.socket)
        program.send("?WATCH={\"enable\":true,\"json\":true};")
        try #require(await running.watching(1))
        running.deliver(0..<3)
        #expect(await ServerFixture.eventually { program.poll(); return program.reports("TPV").count == 3 })

        let nobody = try await ChildProcess.run(Self.connectAsNobody + [running.socket], timeout: 60)
        #expect(nobody.status == 0, "\(nobody.stderr)")
        #expect(nobody.output == "EACCES\n")
        // The kernel refused it: the daemon never saw a connection, and the watching program goes on.
        running.deliver(3..<6)
        #expect(await ServerFixture.eventually { program.poll(); return program.reports("TPV").count == 6 })
        #expect(running.server.statistics.accepted == 1)
        #expect(running.server.statistics.refusedPeers == 0)
        #expect(running.sinks.programs.count == 1)
        await running.stop()
    }

    @Test(
        .enabled(if: getuid() == 0, "needs root, to run a program as nobody and give the socket to any group"),
        .enabled(if: ExternalTool.isAvailable("setpriv", "python3"), "needs setpriv (util-linux) and python3"))
    func aMemberOfTheSocketGroupConnectsThroughMode0660() async throws {
        // nogroup (65534) is nobody's group here: setpriv's --regid makes the peer a member.
        let group = try #require(try? SocketGroup.lookup("nogroup").get(), "Debian has a nogroup group")
        let running = try ProgramServerTests.Running(
            "programs-mode-group", limits: ControlServer.Limits(), keys: ["socket_mode = 0660", "socket_group = nogroup"])
        chmod(running.directory.path, 0o755)
        #expect(try Self.fileInfo(running.socket).st_gid == group.gid)
        let nobody = try await ChildProcess.run(Self.connectAsNobody + [running.socket], timeout: 60)
        #expect(nobody.output.hasPrefix("connected {\"class\":\"VERSION\""), "\(nobody.output) \(nobody.stderr)")
        await running.stop()
    }

    @Test func aGroupThatDoesNotExistIsAConfigurationErrorNamingTheKey() throws {
        let config = try DaemonConfig.parse(
            "[client.qgis]\ngpsd_socket = /run/l/q.sock\nsocket_group = locationd-test-no-such-group\n"
                + "[client.geoclue]\nnmea_socket = /run/l/g.nmea\nsocket_group = 4242\n", file: "/etc/l.conf")
        let problems = ProgramSocketAccess.problems(config)
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.key == "socket_group" && problem.section == "client.qgis" && problem.kind == .badValue)
        #expect(problem.description.hasPrefix("/etc/l.conf: [client.qgis] socket_group = locationd-test-no-such-group: there is no group"))
        // A number is a group ID as it is.
        let access = try ProgramSocketAccess.resolve(
            try #require(config.client(named: "geoclue")).programs, client: "geoclue", file: "/etc/l.conf").get()
        #expect(access.group?.gid == 4242 && access.mode == 0o666)
    }

    @Test func aReloadThatChangesTheModeOrGroupSaysARestartIsNeeded() throws {
        func config(_ keys: String) throws -> DaemonConfig {
            try DaemonConfig.parse("[client.qgis]\ngpsd_socket = /run/l/q.sock\n" + keys, file: "/etc/l.conf")
        }
        let running = try config("")
        for keys in ["socket_mode = 0660\n", "socket_group = adm\n"] {
            let reload = ConfigReload(running: running, reloaded: try config(keys))
            #expect(reload.needRestart == [ProgramFace.programKeys])
            #expect(ProgramFace.programKeys.contains("socket_mode") && ProgramFace.programKeys.contains("socket_group"))
        }
        #expect(ConfigReload(running: running, reloaded: try config("socket_mode = 0666\n")).needRestart.isEmpty)
    }
}
