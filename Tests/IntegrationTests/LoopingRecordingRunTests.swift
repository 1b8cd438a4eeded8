import LocationCore
import LocationProtocol
import LocationDaemon
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `gpsfake` looping a recording (as it does unless given `-1`): at every loop
/// the receiver time goes back to the recording's start. Each loop is a new
/// time base; the log goes on, and status counts the jumps (issue #8).
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
struct LoopingRecordingRunTests {
    @Test func aLoopingGpsfakeIsLoggedLoopAfterLoop() async throws {
        let sandbox = try DaemonSandbox("loop")
        // A short recording: the walk's first minute (about 60 epochs).
        let walk = String(decoding: try FileIO.read(PackagePaths.fixture("walk.nmea")), as: UTF8.self)
        var minute = ""
        for line in walk.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("GPGGA,0931") { break }
            minute += line + "\n"
        }
        let recording = sandbox.file("minute.nmea")
        try FileIO.write(recording, Array(minute.utf8))
        let fake = try await GPSFake.start(log: recording, options: .init(cycle: 0.004, once: false, gated: false))
        defer { fake.kill() }
        try sandbox.writeConfig(port: fake.port, clients: DaemonSandbox.logger(filter: "none"))
        let daemon = try sandbox.startDaemon()
        defer { daemon.signal(SIGKILL) }

        func backwardSteps(_ records: [LogRecord]) -> [Int] {
            let times = records.map(\.time)
            return zip(times, times.dropFirst()).enumerated().filter { $0.element.1 < $0.element.0 }.map { $0.offset + 1 }
        }
        // Two loops back to the start, and fixes logged after the second.
        let looped = await waitUntil(timeout: 120) {
            let records = sandbox.records()
            let steps = backwardSteps(records)
            return steps.count >= 2 && records.count >= (steps.last ?? 0) + 20
        }
        // One reading of the log for both (the daemon keeps appending to it).
        let records = sandbox.records()
        let steps = backwardSteps(records)
        #expect(looped, "steps back at \(steps), \(records.count) records: \(daemon.stderr)")
        // Each loop starts again at the recording's start, and within a loop times only go forward.
        let starts = steps.map { records[$0].time }
        #expect(starts.allSatisfy { abs($0 - starts[0]) < 2 }, "each loop restarts the recording: \(starts)")
        let report = try await ControlPlane(sandbox: sandbox).status()
        #expect(report.status.timeJumps >= steps.count, "status counts every jump: \(report.status.timeJumps)")
        #expect(daemon.stderr.occurrences(of: "receiver time went back") >= steps.count)
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
    }
}
