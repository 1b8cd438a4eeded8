import LocationCore
import LocationDaemon
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The running daemon driven by the built `locationctl` over its socket.
@Suite(
    .serialized, .enabled(if: Package.locationdMissing == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
struct ControlRunTests {
    func locationctl(_ sandbox: DaemonSandbox, _ arguments: [String]) async throws -> (status: Int32?, stdout: String) {
        let out = sandbox.file("ctl-\(UInt32.random(in: 0...UInt32.max)).out")
        let child = try ChildProcess(
            [Package.locationctl, "--socket", sandbox.socketPath] + arguments, stdoutPath: out, stderrPath: out)
        guard await child.waitForExit(timeout: 20) else {
            child.signal(SIGKILL)
            return (nil, child.stdout)
        }
        return (child.exitStatus, child.stdout)
    }

    @Test func aPermissionTakenAwayStopsLoggingUntilItIsGivenBackAndEveryChangeIsAudited() async throws {
        let sandbox = try DaemonSandbox("control")
        let track = try await sandbox.longTrack(sentences: 6000)
        let fake = try await GPSFake.start(log: track, options: .init(cycle: 0.005, once: true, gated: true))
        try sandbox.writeConfig(port: fake.port, clients: DaemonSandbox.logger(filter: "none", authorization: "ask"))
        let daemon = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 20) { daemon.stderr.contains("gpsd: connected to") }, "\(daemon.stderr)")
        fake.release()
        // ask: nothing is logged.
        let asking = try await locationctl(sandbox, ["status", "logger"])
        #expect(asking.status == 0)
        #expect(asking.stdout.contains("not authorized yet (ask)"))
        #expect(asking.stdout.contains("locationctl authorize logger while-using"))
        await sleepSeconds(1)
        #expect(sandbox.records().isEmpty)

        #expect(try await locationctl(sandbox, ["request", "logger", "while-using"]).status == 0)
        #expect(try await locationctl(sandbox, ["answer", "logger", "allow-while-using"]).status == 0)
        try #require(await waitUntil(timeout: 20) { sandbox.records().count >= 20 }, "\(daemon.stderr)")

        #expect(try await locationctl(sandbox, ["authorize", "logger", "never"]).status == 0)
        let stopped = sandbox.records().count
        await sleepSeconds(1.5)
        let denied = try await locationctl(sandbox, ["status", "logger"])
        #expect(denied.stdout.contains("the user denied location (never)"))
        // At most a fix that was already on its way when the answer came.
        #expect(sandbox.records().count <= stopped + 1)
        let whileDenied = sandbox.records().count

        #expect(try await locationctl(sandbox, ["authorize", "logger", "always"]).status == 0)
        #expect(await waitUntil(timeout: 20) { sandbox.records().count >= whileDenied + 20 }, "logging resumes")
        let times = sandbox.records().map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        // The gap: the fixes the walk produced while the logger was denied are missing.
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        // The walk has a fix a second; 1.5 s of wall time at gpsfake's pace is tens of seconds of it.
        #expect(gaps.contains { $0 > 5 }, "the fixes of the denied stretch are missing")

        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 5))
        #expect(daemon.exitStatus == 0)
        let audit = String(decoding: try readFile(sandbox.logDirectory + "/audit.jsonl"), as: UTF8.self)
        let commands = audit.split(separator: "\n").compactMap { try? JSONValue.parse(String($0))["cmd"]?.stringValue }
        #expect(commands == ["request", "answer", "authorize", "authorize"])
    }

    @Test func aSecondDaemonOnTheSameSocketRefusesToStartAndLeavesTheStateAlone() async throws {
        let sandbox = try DaemonSandbox("control-second")
        try sandbox.writeConfig(port: try GPSFake.freePort(), clients: DaemonSandbox.logger(authorization: "ask"))
        let first = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 20) { first.stderr.contains("ready:") }, "\(first.stderr)")
        #expect(try await locationctl(sandbox, ["authorize", "logger", "never"]).status == 0)
        try #require(await waitUntil(timeout: 5) {
            (try? StateCodec.decode(try readFile(sandbox.statePath)).client("logger")?.status) == .never
        })
        let state = try readFile(sandbox.statePath)
        let second = try sandbox.startDaemon()
        #expect(await second.waitForExit(timeout: 10))
        #expect(second.exitStatus == 1)
        #expect(second.stderr.contains("another locationd is running on \(sandbox.socketPath)"))
        #expect(try readFile(sandbox.statePath) == state)
        #expect(try ScratchListing.names(sandbox.stateDirectory) == ["state.json"])
        // The first one is unharmed.
        #expect(try await locationctl(sandbox, ["status", "logger"]).stdout.contains("never"))
        first.signal(SIGTERM)
        #expect(await first.waitForExit(timeout: 5))
        #expect(first.exitStatus == 0)
    }
}
