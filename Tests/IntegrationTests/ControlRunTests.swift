import LocationCore
import LocationValues
import LocationDaemon
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The running daemon driven by the built `locationctl` over its socket.
@Suite(
    .timeLimit(.minutes(10)),
    .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
struct ControlRunTests {
    func locationctl(_ sandbox: DaemonSandbox, _ arguments: [String]) async throws -> (status: Int32?, stdout: String) {
        let (status, stdout, _) = try await ControlPlane(sandbox: sandbox).ctl(arguments)
        return (status, stdout)
    }

    @Test func aPermissionTakenAwayStopsLoggingUntilItIsGivenBackAndEveryChangeIsAudited() async throws {
        let sandbox = try DaemonSandbox("control")
        let track = try await sandbox.longTrack(sentences: 6000)
        let fake = try await GPSFake.start(log: track, options: .init(cycle: 0.005, once: true, gated: true))
        try sandbox.writeConfig(port: fake.port, clients: DaemonSandbox.logger(filter: "none", authorization: "ask"))
        let daemon = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("gpsd: connected to") }, "\(daemon.stderr)")
        fake.release()
        // ask: nothing is logged.
        let asking = try await locationctl(sandbox, ["status", "logger"])
        #expect(asking.status == 0)
        #expect(asking.stdout.contains("not authorized yet (ask)"))
        #expect(asking.stdout.contains("locationctl authorize logger while-using"))
        // Fixes come (three handed on by the source), and none is logged.
        let plane = ControlPlane(sandbox: sandbox)
        #expect(await plane.fixesCame(3, after: 0), "\(daemon.stderr)")
        #expect(sandbox.records().isEmpty)

        #expect(try await locationctl(sandbox, ["request", "logger", "while-using"]).status == 0)
        #expect(try await locationctl(sandbox, ["answer", "logger", "allow-while-using"]).status == 0)
        try #require(await waitUntil(timeout: 60) { sandbox.records().count >= 20 }, "\(daemon.stderr)")

        #expect(try await locationctl(sandbox, ["authorize", "logger", "never"]).status == 0)
        let stopped = sandbox.records().count
        // Ten fixes of the walk (a fix a second of its time) while denied: the gap below is theirs.
        #expect(await plane.fixesCame(10, after: try await plane.sourceFixes()), "\(daemon.stderr)")
        let denied = try await locationctl(sandbox, ["status", "logger"])
        #expect(denied.stdout.contains("the user denied location (never)"))
        // At most a fix that was already on its way when the answer came.
        #expect(sandbox.records().count <= stopped + 1)
        let whileDenied = sandbox.records().count

        #expect(try await locationctl(sandbox, ["authorize", "logger", "always"]).status == 0)
        #expect(await waitUntil(timeout: 60) { sandbox.records().count >= whileDenied + 20 }, "logging resumes")
        let times = sandbox.records().map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        // The gap: the fixes the walk produced while the logger was denied are missing.
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        // The walk has a fix a second, and ten of its fixes came while denied: a gap of ten seconds or more.
        #expect(gaps.contains { $0 > 5 }, "the fixes of the denied stretch are missing: \(gaps.filter { $0 > 1.5 })")

        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0)
        let audit = String(decoding: try FileIO.read(sandbox.logDirectory + "/audit.jsonl"), as: UTF8.self)
        let commands = audit.split(separator: "\n").compactMap { try? JSONValue.parse(String($0))["cmd"]?.stringValue }
        #expect(commands == ["request", "answer", "authorize", "authorize"])
    }

    @Test func aSecondDaemonOnTheSameSocketRefusesToStartAndLeavesTheStateAlone() async throws {
        let sandbox = try DaemonSandbox("control-second")
        try sandbox.writeConfig(port: try GPSFake.freePort(), clients: DaemonSandbox.logger(authorization: "ask"))
        let first = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 60) { first.stderr.contains("ready:") }, "\(first.stderr)")
        #expect(try await locationctl(sandbox, ["authorize", "logger", "never"]).status == 0)
        try #require(await waitUntil(timeout: 60) {
            (try? StateCodec.decode(try FileIO.read(sandbox.statePath)).client("logger")?.status) == .never
        })
        let state = try FileIO.read(sandbox.statePath)
        let second = try sandbox.startDaemon()
        #expect(await second.wait(timeout: 60))
        #expect(second.exitStatus == 1)
        #expect(second.stderr.contains("another locationd is running on \(sandbox.socketPath)"))
        #expect(try FileIO.read(sandbox.statePath) == state)
        #expect(try FileIO.list(sandbox.stateDirectory) == ["state.json"])
        // The first one is unharmed.
        #expect(try await locationctl(sandbox, ["status", "logger"]).stdout.contains("never"))
        first.signal(SIGTERM)
        #expect(await first.wait(timeout: 60))
        #expect(first.exitStatus == 0)
    }
}
