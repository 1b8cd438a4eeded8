#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import LocationSystem
import Testing
import TestSupport

/// The access report against the built daemon: its counts against the log's
/// records, across a restart and across SIGKILL (a finished minute is on disk).
@Suite(.timeLimit(.minutes(10)), .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct AccessReportRunTests {
    /// The logger's figures in `locationctl --json report` (as root).
    static func logger(_ plane: ControlPlane) async throws -> JSONValue? {
        let (status, stdout, stderr) = try await plane.ctl(["--json", "report"])
        try #require(status == 0, "\(stderr)")
        let report = try JSONValue.parse(Array(stdout.utf8))
        return report["clients"]?.arrayValue?.first { $0["client"] == "logger" }
    }

    /// Waits until the logger's log stops growing; its records.
    static func settled(_ sandbox: DaemonSandbox, beyond count: Int) async -> Int {
        var last = -1
        _ = await waitUntil(timeout: 120, every: 0.5) {
            let now = wholeRecords(sandbox)
            defer { last = now }
            return now > count && now == last
        }
        return wholeRecords(sandbox)
    }

    /// The records of the logger's log up to its last newline (`wholeLines`): read while the daemon
    /// writes, the file can end in the part of a batch `write(2)` has not copied yet, which is no
    /// torn record (seen once in a clean-clone run).
    static func wholeRecords(_ sandbox: DaemonSandbox) -> Int {
        parseLog(wholeLines(sandbox.logBytes()), name: sandbox.logPath("logger")).count
    }

    /// The logger's log records counted in `state/report.jsonl` (finished minutes only).
    static func countOnDisk(_ sandbox: DaemonSandbox) -> Int {
        let bytes = (try? FileIO.read(sandbox.file("state/report.jsonl"))) ?? []
        return bytes.split(separator: 0x0A).compactMap { AccessCount(line: $0) }
            .filter { $0.client == "logger" && $0.sink == .log }.reduce(0) { $0 + $1.count }
    }

    @Test func theReportCountsTheLogsRecordsAcrossARestartAndSIGKILL() async throws {
        let sandbox = try DaemonSandbox("report")
        let plane = ControlPlane(sandbox: sandbox)
        // The walk, read once per start from a file: each start logs it again.
        try sandbox.writeNMEAConfig(device: PackagePaths.fixture("walk.nmea"), clients: DaemonSandbox.logger(filter: "none"))
        var daemon = try sandbox.startDaemon()
        defer { daemon.signal(SIGKILL) }
        let first = await Self.settled(sandbox, beyond: 0)
        var logger = try #require(try await Self.logger(plane), "\(daemon.stderr)")
        #expect(logger["count"]?.numberValue == Double(first))
        #expect(logger["sinks"]?["log"]?.numberValue == Double(first))
        #expect(logger["accuracy"]?["full"]?.numberValue == Double(first) && logger["accuracy"]?["reduced"] == 0)

        // A restart (SIGTERM writes every count): the report goes on from the file.
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        daemon = try sandbox.startDaemon()
        let second = await Self.settled(sandbox, beyond: first)
        logger = try #require(try await Self.logger(plane))
        #expect(logger["count"]?.numberValue == Double(second))

        // SIGKILL once the minute of the last position is over: that minute was written, nothing is lost.
        // The 1 s duty writes a minute once it is over; under a loaded machine's delays it is awaited
        // on disk (what the test holds is that a finished minute is there when SIGKILL comes).
        let minute = (SystemClock.utc() / 60).rounded(.down)
        _ = await waitUntil(timeout: 70, every: 0.5) { SystemClock.utc() >= (minute + 1) * 60 + 2 }
        let onDisk = await waitUntil(timeout: 30, every: 0.25) { Self.countOnDisk(sandbox) == second }
        #expect(onDisk, "the finished minutes on disk before SIGKILL: \(Self.countOnDisk(sandbox)) of \(second)")
        daemon.signal(SIGKILL)
        #expect(await daemon.wait(timeout: 60))
        daemon = try sandbox.startDaemon()
        let third = await Self.settled(sandbox, beyond: second)
        logger = try #require(try await Self.logger(plane))
        #expect(logger["count"]?.numberValue == Double(third), "after SIGKILL: \(logger) against \(third) records")
        let size = (try? FileIO.read(sandbox.file("state/report.jsonl")).count) ?? -1
        FaultReport.figure(
            "access-report",
            "report count vs the log's records: \(Int(logger["count"]?.numberValue ?? -1)) vs \(third) after a restart and a SIGKILL; "
                + "report.jsonl \(size) bytes")
    }
}
