import LocationCore
import LocationDaemon
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `locationd run` with `[source] type = nmea`: no gpsd at all.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct NMEASourceRunTests {
    @Test func aRecordedFileAsTheDeviceIsLoggedAsItsFiveMetreChain() async throws {
        let sandbox = try DaemonSandbox("nmea")
        let walk = PackagePaths.fixture("walk.nmea")
        try sandbox.writeNMEAConfig(device: walk)
        let daemon = try sandbox.startDaemon()
        let expected = distanceFilterChain(try nmeaFixes(walk), filter: 5)
        #expect(await waitUntil(timeout: 60) { sandbox.records().count >= expected.count }, "\(daemon.stderr)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
        let records = sandbox.records()
        #expect(records.map(\.time) == expected.map { $0.time ?? 0 })
        #expect(records.map(\.longitude) == expected.map { ($0.longitude * 1e7).rounded() / 1e7 })
    }

    /// #32: a plain file read to its end and followed is no outage: `status` says so, and an
    /// updating client gets no `location-unknown` for it, however long the file stays as it is.
    @Test func aFileFollowedPastItsEndIsAtEndOfFileNotAnOutage() async throws {
        let sandbox = try DaemonSandbox("nmea-eof")
        let walk = PackagePaths.fixture("walk.nmea")
        try sandbox.writeNMEAConfig(device: walk, clients: DaemonSandbox.logger(filter: "none"))
        let daemon = try sandbox.startDaemon()
        defer { daemon.kill() }
        let plane = ControlPlane(sandbox: sandbox)
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") }, "\(daemon.stderr)")
        let watcher = try ChildProcess(
            [PackagePaths.product("locationctl"), "--socket", sandbox.socketPath, "--json", "watch", "logger"],
            environment: .only([:]), stdoutPath: sandbox.file("watch.jsonl"), stderrPath: sandbox.file("watch.err"))
        defer { watcher.kill() }
        try #require(await waitUntil(timeout: 60) { watcher.stdout.contains(#""state":"end-of-file""#) }, "\(watcher.stdout)")
        // Past the engine's 5 s outage delay, by the daemon's own account: its last fix over 6 s old.
        #expect(
            await waitUntilAsync(timeout: 60, every: 0.5) { ((try? await plane.status().status.lastFixAge) ?? 0) > 6 },
            "\(daemon.stderr)")
        #expect(!watcher.stdout.contains("location-unknown"), "no error for a file at its end: \(watcher.stdout)")
        let text = try await plane.ctl(["status"])
        #expect(text.stdout.contains(": at end of file, following it; last fix "), "\(text.stdout)")
        #expect(text.stdout.contains("the source is at the end of its file, following it"), "\(text.stdout)")
        #expect(!text.stdout.contains("not connected"), "\(text.stdout)")
    }
}
