#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationDaemon
import LocationSystem
import Testing
import TestSupport

/// Fault suite (scripts/faults): the log's file system fills while the daemon
/// logs with fsync = always. It says so once, keeps running and holding new
/// lines, writes them when there is room again, and the log never holds a torn
/// line or a fix twice. A small tmpfs where this process may mount one (root
/// in CI's container); otherwise a file-size limit (`ulimit -f`), with
/// logrotate's rename and SIGHUP as the room made again.
@Suite(
    .timeLimit(.minutes(30)),
    .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
struct DiskFullFaults {
    @Test func aFullFileSystemIsReportedOnceAndTheHeldLinesAreWrittenWhenThereIsRoomAgain() async throws {
        let sandbox = try DaemonSandbox("diskfull")
        let track = try await sandbox.longTrack(sentences: 40_000)
        let fake = try await GPSFake.start(log: track, options: .init(cycle: 0.002, once: true, gated: false))
        defer { fake.stop() }
        try sandbox.writeConfig(port: fake.port, fsync: "always", clients: DaemonSandbox.logger(filter: "none"))
        try FileSystem.makeDirectories(sandbox.logDirectory, mode: 0o755)
        let log = sandbox.logPath()
        let mounted = Tmpfs.canMount && Tmpfs.mount(sandbox.logDirectory, size: "256k")
        defer { if mounted { Tmpfs.unmount(sandbox.logDirectory) } }
        let how: String
        let daemon: ChildProcess
        if mounted {
            // Most of it taken first: the log fills the rest within seconds.
            Tmpfs.fill(sandbox.logDirectory, limit: 200 << 10)
            daemon = try sandbox.startDaemon()
            how = "tmpfs of 256 KiB"
        } else {
            // 128 blocks of 512 bytes (sh's ulimit -f): the log cannot grow past 64 KiB.
            daemon = try sandbox.startDaemon(prefix: ["/bin/sh", "-c", "ulimit -f 128 && exec \"$@\"", "sh"])
            how = "ulimit -f of 64 KiB"
        }
        let full = "cannot write \(log) ("
        try #require(await waitUntil(timeout: 120) { daemon.stderr.contains(full) }, "the log never filled: \(daemon.stderr)")
        let linesWhenFull = sandbox.records().count
        // Fixes keep coming and are held; the daemon serves as before.
        let control = ControlPlane(sandbox: sandbox)
        #expect(await control.fixesCame(2, after: try await control.sourceFixes()), "\(daemon.stderr)")
        #expect(!daemon.hasExited, "\(daemon.stderr)")
        let status = try await control.ctl(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        // Status says so (#8): the error, since when, the lines held in memory and those lost.
        #expect(status.stdout.contains("  log: cannot write \(log): "), "\(status.stdout)")
        #expect(status.stdout.contains(" lines held in memory, "), "\(status.stdout)")
        let failing = try #require(try await control.status(of: "logger").logWrite, "no logWrite in status --json")
        #expect(failing.failing && failing.held > 0 && failing.path == log, "\(failing)")
        #expect(failing.error?.hasPrefix("write \(log): ") == true && failing.since != nil, "\(failing)")

        // Room again: the filler goes, or logrotate renames the full log and sends SIGHUP.
        if mounted {
            #expect(unlink(sandbox.logDirectory + "/filler") == 0)
        } else {
            #expect(rename(log, log + ".1") == 0)
            daemon.signal(SIGHUP)
        }
        let works = "writing \(log) works again: "
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains(works) }, "\(daemon.stderr)")
        let told = daemon.stderr.components(works).dropFirst().first.map { String($0.prefix { $0 != "\n" }) } ?? ""
        let resumed = sandbox.records().count
        // And then that writing works: nothing held, the error gone, what was lost still counted.
        let recovered = try #require(try await control.status(of: "logger").logWrite)
        #expect(!recovered.failing && recovered.error == nil && recovered.held == 0, "\(recovered)")
        #expect(recovered.lost >= failing.lost && recovered.written >= linesWhenFull, "\(recovered)")
        #expect(await waitUntil(timeout: 60) { sandbox.records().count > resumed + 10 }, "logging goes on: \(daemon.stderr)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
        #expect(daemon.stderr.occurrences(of: full) == 1, "reported once per episode")

        // Every line whole, every fix once and in order, across the rotation if there was one.
        var bytes = mounted ? [] : ((try? FileIO.read(log + ".1")) ?? [])
        bytes += (try? FileIO.read(log)) ?? []
        let (records, problems) = LogFileRecords.parse(bytes, name: log)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
        let times = records.map(\.time)
        let disorder = zip(times, times.dropFirst()).filter { $0 >= $1 }.count
        #expect(disorder == 0, "no fix twice, none out of order")
        FaultReport.figure(
            "disk-full",
            "\(how): reported once after \(linesWhenFull) lines, the daemon kept serving; room again: \(told); "
                + "\(records.count) lines in all, \(problems.count) torn, \(disorder) repeated or out of order")
    }
}
