import LocationCore
import LocationDaemon
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `locationd run` started as locationd.socket starts it: systemd-socket-activate
/// listens on the control socket, the first connection execs the daemon with
/// the socket as descriptor 3 (LISTEN_FDS=1, LISTEN_PID its pid), and the
/// daemon answers that connection on the socket it was handed.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: ExternalTool.isAvailable("systemd-socket-activate"), "needs systemd-socket-activate (systemd)"))
struct SocketActivationRunTests {
    @Test func theFirstConnectionStartsTheDaemonOnThePassedSocket() async throws {
        let sandbox = try DaemonSandbox("activation")
        // No gpsd at port 9 (discard): the daemon keeps retrying it, which is all this needs.
        try sandbox.writeConfig(port: 9)
        #expect(mkdir(sandbox.file("run"), 0o755) == 0)
        let activator = try #require(ExternalTool.path("systemd-socket-activate"))
        let daemon = try ChildProcess(
            [activator, "--listen", sandbox.socketPath, PackagePaths.product("locationd"), "run", "--config", sandbox.configPath],
            environment: .only([:]), stdoutPath: sandbox.file("activation.stdout"), stderrPath: sandbox.file("activation.stderr"))
        defer { daemon.kill() }
        try #require(await waitUntil(timeout: 30) { FileIO.exists(sandbox.socketPath) }, "\(daemon.stderr)")

        // This connection is what starts the daemon; it is answered on the passed socket.
        let status = try await ControlPlane(sandbox: sandbox).ctl(["status"])
        #expect(status.status == 0, "\(status.stderr)\n\(daemon.stderr)")
        #expect(status.stdout.contains("logger"))
        #expect(daemon.stderr.contains("control socket \(sandbox.socketPath): passed by systemd"), "\(daemon.stderr)")
        #expect(!daemon.stderr.contains("another locationd is running"))

        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
        var info = stat()
        #expect(lstat(sandbox.socketPath, &info) == 0, "the socket file is systemd's: the daemon leaves it")
    }
}
