#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import LocationDaemon
import LocationSystem
import Testing
import TestSupport

/// A client's app as a real peer of another uid (nobody, via setpriv) against
/// the built daemon with the packaged socket mode: what it may send, its
/// positions on its own connection, and its session ending with its
/// connection (issue #30's figures).
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: getuid() == 0, "needs root to run peers as another user"),
    .enabled(if: ExternalTool.isAvailable("setpriv", "python3"), "needs setpriv (util-linux) and python3"),
    .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
struct AppRoleRunTests {
    static let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// The app: begins its session, asks for while-using, starts, then
    /// watches on a second connection and prints what arrives until a
    /// `location` event (or 60 s), keeping the first connection open meanwhile.
    static let app = """
        import json, socket, sys, time
        def connect():
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); return s, s.makefile("rw")
        s, f = connect()
        for cmd in [{"cmd": "session", "client": "survey", "state": "begin"},
                    {"cmd": "request", "client": "survey", "kind": "while-using"}, {"cmd": "start", "client": "survey"}]:
            f.write(json.dumps(cmd) + "\\n"); f.flush(); print("reply", f.readline().strip(), flush=True)
        w, g = connect()
        g.write('{"cmd":"watch","client":"survey"}\\n'); g.flush()
        end = time.time() + 60
        w.settimeout(60)
        while time.time() < end:
            line = g.readline()
            if not line: break
            print(line.strip(), flush=True)
            if '"event":"location"' in line: break
        """

    /// A daemon on a looping gpsfake with `survey` (its app: uid 65534), `others` and `logger`.
    static func start(
        _ plane: ControlPlane, fake: GPSFake, survey authorization: String = "ask", others: [String] = []
    ) async throws -> ChildProcess {
        let survey = ControlPlane.client("survey", authorization: authorization, inUse: false, updating: false) + "app_users = 65534\n"
        try plane.writeConfig(port: fake.port, clients: [survey] + others + [DaemonSandbox.logger(filter: "none") + "\n"])
        let daemon = try plane.sandbox.startDaemon()
        try #require(await waitUntil(timeout: 60) { !plane.sandbox.records("logger").isEmpty }, "\(daemon.stderr)")
        // mkdtemp made the sandbox 0700; the socket's own mode (0666 by default) is what is under test.
        chmod(plane.sandbox.path, 0o755)
        chmod(plane.sandbox.file("run"), 0o755)
        return daemon
    }

    @Test func theAppSendsItsOwnSideOnlyGetsItsPositionsAndGoesOutOfUseWithItsConnection() async throws {
        let plane = ControlPlane(sandbox: try DaemonSandbox("approle"))
        let fake = try await GPSFake.start(log: PackagePaths.fixture("walk.nmea"), options: .init(cycle: 0.02, once: false, gated: false))
        defer { fake.kill() }
        let daemon = try await Self.start(plane, fake: fake)
        defer { daemon.signal(SIGKILL) }

        // Connects with the packaged defaults, and reads.
        let (read, _, readErrors) = try await plane.ctl(["status"], prefix: Self.nobody)
        #expect(read == 0, "\(readErrors)")
        // The user side and other clients' app side: all refused, saying who may.
        let refusedCommands = [
            ["answer", "survey", "allow-while-using"], ["authorize", "survey", "always"], ["accuracy", "survey", "full"],
            ["share", "survey"], ["reset", "survey"], ["services", "off"], ["stop", "logger"],
            ["request", "logger", "while-using"], ["session", "logger", "begin"],
        ]
        var refused = 0
        for command in refusedCommands {
            let (status, _, errors) = try await plane.ctl(command, prefix: Self.nobody)
            if status == 1 && errors.contains("may send it") { refused += 1 }
            #expect(status == 1 && errors.contains("may send it"), "\(command): \(errors)")
        }
        #expect(refused == refusedCommands.count)

        // Every app-side command of its own client is its to send; someone else (uid 65533) may send none of them.
        let someoneElse = ["/usr/bin/setpriv", "--reuid=65533", "--regid=65533", "--clear-groups"]
        let ownSide = [
            ["session", "survey", "begin"], ["session", "survey", "end"], ["request", "survey", "while-using"],
            ["request-full-accuracy", "survey", "survey"], ["start", "survey"], ["stop", "survey"],
            ["locate", "survey", "--timeout", "1"],
        ]
        for command in ownSide {
            let (_, _, errors) = try await plane.ctl(command, prefix: Self.nobody)
            #expect(!errors.contains("may send it"), "\(command): \(errors)")
            let (status, _, otherErrors) = try await plane.ctl(command, prefix: someoneElse)
            #expect(status == 1 && otherErrors.contains("only survey's app"), "\(command): \(otherErrors)")
        }

        // Its own side, and its positions on its own connection once the operator answers.
        let out = plane.sandbox.file("app.out")
        let app = try ChildProcess(Self.nobody + ["/usr/bin/python3", "-c", Self.app, plane.sandbox.socketPath], stdoutPath: out)
        defer { app.kill() }
        try #require(await waitUntil(timeout: 60) { (FileIO.text(out) ?? "").contains("\"watching\"") }, "\(FileIO.text(out) ?? "")")
        let replies = (FileIO.text(out) ?? "").split(separator: "\n").filter { $0.hasPrefix("reply") }
        #expect(replies.count == 3 && replies.allSatisfy { $0.contains("\"ok\":true") }, "\(replies)")
        #expect(try await plane.status(of: "survey").inUse)
        let (answered, _, answerErrors) = try await plane.ctl(["answer", "survey", "allow-while-using"])
        #expect(answered == 0, "\(answerErrors)")
        #expect(await app.wait(timeout: 60))
        let lines = FileIO.text(out) ?? ""
        #expect(lines.contains("\"event\":\"location\"") && lines.contains("\"client\":\"survey\""), "\(lines)")

        // Its report: its own client only, the positions its watch got counted for its uid.
        let (reported, reportOut, reportErrors) = try await plane.ctl(["--json", "report"], prefix: Self.nobody)
        #expect(reported == 0, "\(reportErrors)")
        let clients = (try? JSONValue.parse(Array(reportOut.utf8)))?["clients"]?.arrayValue ?? []
        #expect(clients.map { $0["client"]?.stringValue } == ["survey"], "\(reportOut)")
        // #39: by its user's name and its process's, where the kernel and the user database give them.
        #expect(reportOut.contains(#"{"uid":65534,"user":"nobody","name":""#) && reportOut.contains(#"","sink":"watch""#), "\(reportOut)")

        // Its connections are gone: out of use at once, as `session end` would.
        let closedAt = SystemClock.monotonic()
        let outOfUse = try await waitUntilAsync(timeout: 10) { try await plane.status(of: "survey").inUse == false }
        #expect(outOfUse)
        let outOfUseAfter = SystemClock.monotonic() - closedAt
        FaultReport.figure(
            "app-role",
            "app uid 65534 with the packaged socket mode: connects yes; refused \(refused) of \(refusedCommands.count); "
                + "own session/request/start/watch, positions on its connection: \(lines.contains("\"event\":\"location\"") ? "yes" : "no"); "
                + "out of use \(Int(outOfUseAfter * 1000)) ms after its connection closed (upper bound, polled)")
    }
}
