#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem
import Testing
import TestSupport

/// An app holds its session with the CLI it is given (#39 items 2–4), as a real peer of another
/// uid (nobody, via setpriv) against the built daemon: `session CLIENT -- COMMAND…` and
/// `watch CLIENT --in-use` hold it while they run, the one-shot `begin` is refused naming them,
/// `locate` says at once why no position can come, and the app is told what to ask the
/// operator for.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: getuid() == 0, "needs root to run peers as another user"),
    .enabled(if: ExternalTool.isAvailable("setpriv"), "needs setpriv (util-linux)"),
    .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
struct AppSessionRunTests {
    static let nobody = AppRoleRunTests.nobody

    /// `survey` (while-using, not in use, its app uid 65534), `other` never, `logger` delivering.
    static func start(_ plane: ControlPlane, fake: GPSFake) async throws -> ChildProcess {
        try await AppRoleRunTests.start(
            plane, fake: fake, survey: "while-using", others: [ControlPlane.client("other", authorization: "never")])
    }

    @Test func theAppHoldsItsSessionWhileItsCommandOrItsWatchRuns() async throws {
        let plane = ControlPlane(sandbox: try DaemonSandbox("appsession"))
        let fake = try await GPSFake.start(log: PackagePaths.fixture("walk.nmea"), options: .init(cycle: 0.02, once: false, gated: false))
        defer { fake.kill() }
        let daemon = try await Self.start(plane, fake: fake)
        defer { daemon.signal(SIGKILL) }
        let ctl = [PackagePaths.product("locationctl"), "--socket", plane.sandbox.socketPath]

        // Not in use: locate says so at once, with the form that would change it for an app.
        let (located, _, locateErrors) = try await plane.ctl(["locate", "survey", "--timeout", "60"], prefix: Self.nobody)
        #expect(located == 1, "\(locateErrors)")
        #expect(locateErrors.contains("no location can come to survey: while-using, and not in use"), "\(locateErrors)")
        #expect(locateErrors.contains("→ run: locationctl session survey -- COMMAND..."), "\(locateErrors)")

        // Its status puts the user's side as the operator's, its own side as its own to run.
        let (_, shown, _) = try await plane.ctl(["status"], prefix: Self.nobody)
        #expect(!shown.contains("→ run: locationctl authorize"), "\(shown)")
        #expect(shown.contains("→ ask the operator (root or the socket group) to run: locationctl authorize other while-using"), "\(shown)")
        #expect(shown.contains("→ run: locationctl session survey -- COMMAND..."), "\(shown)")

        // The one-shot begin would hold nothing: refused, naming the forms that hold.
        let (began, _, beginErrors) = try await plane.ctl(["session", "survey", "begin"], prefix: Self.nobody)
        #expect(began == 1 && beginErrors.contains("locationctl session survey -- COMMAND..."), "\(beginErrors)")
        #expect(try await plane.status(of: "survey").inUse == false)

        // Held while the command runs; the command's status is locationctl's.
        let script = "\(ctl.joined(separator: " ")) --json status survey; exit 7"
        let (held, heldOut, heldErrors) = try await plane.ctl(["session", "survey", "--", "/bin/sh", "-c", script], prefix: Self.nobody)
        #expect(held == 7, "\(heldErrors)")
        let during = try StatusReport(json: try JSONValue.parse(Array(heldOut.utf8)))
        #expect(during.status.clients.first?.inUse == true, "\(heldOut)")
        #expect(try await waitUntilAsync(timeout: 10) { try await plane.status(of: "survey").inUse == false })

        // The survey app: a position while its session is held.
        let (fixed, fixOut, fixErrors) = try await plane.ctl(
            ["session", "survey", "--"] + ctl + ["locate", "survey", "--timeout", "30"], prefix: Self.nobody)
        #expect(fixed == 0 && fixOut.contains("survey location"), "\(fixOut) \(fixErrors)")

        // `watch --in-use`: the app's session lasts while the watch runs.
        let appWatch = try ChildProcess(
            Self.nobody + ctl + ["watch", "survey", "--in-use"], environment: .only([:]), stdoutPath: plane.sandbox.file("appwatch.out"))
        defer { appWatch.kill() }
        #expect(try await waitUntilAsync(timeout: 30) { try await plane.status(of: "survey").inUse }, "\(appWatch.stdout)")
        appWatch.signal(SIGINT)
        #expect(await appWatch.wait(timeout: 30))
        #expect(try await waitUntilAsync(timeout: 10) { try await plane.status(of: "survey").inUse == false })

        // The operator's session outlives a connection: `watch --in-use` ends it when the watch ends.
        let operatorWatch = try ChildProcess(
            ctl + ["watch", "survey", "--in-use"], environment: .only([:]), stdoutPath: plane.sandbox.file("opwatch.out"))
        defer { operatorWatch.kill() }
        #expect(try await waitUntilAsync(timeout: 30) { try await plane.status(of: "survey").inUse }, "\(operatorWatch.stdout)")
        operatorWatch.signal(SIGINT)
        #expect(await operatorWatch.wait(timeout: 30))
        #expect(try await plane.status(of: "survey").inUse == false, "\(operatorWatch.stdout)")
    }
}
