import LocationConfig
import LocationCore
import LocationValues
import LocationDaemon
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `locationd replay` as a process: the walk through the same engine and
/// log writer as the daemon, deterministic, with events.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct ReplayTests {
    static let walk = PackagePaths.fixture("walk.nmea")

    /// A sandbox whose config has the logger (always, 5 m, kilometer) and a reduced client.
    static func sandbox(_ label: String) throws -> DaemonSandbox {
        let sandbox = try DaemonSandbox(label)
        let rough = """
            [client.rough]
            log = rough.jsonl
            precise = off
            reduced_interval = 60
            authorization = always
            updating = on
            """
        try sandbox.writeConfig(port: 2947, clients: DaemonSandbox.logger() + "\n\n" + rough)
        return sandbox
    }

    func replay(_ sandbox: DaemonSandbox, _ extra: [String]) async throws -> (status: Int32?, stdout: String, stderr: String) {
        try await sandbox.runLocationd(["replay", Self.walk, "--config", sandbox.configPath] + extra)
    }

    @Test func theWalkIsLoggedAsItsFiveMetreChain() async throws {
        let sandbox = try Self.sandbox("replay-chain")
        let result = try await replay(sandbox, ["--log-dir", sandbox.file("out")])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = distanceFilterChain(try nmeaFixes(Self.walk), filter: 5)
        let records = sandbox.records(file: sandbox.file("out/logger.jsonl"))
        #expect(records.map(\.time) == expected.map { $0.time ?? 0 })
        #expect(records.map(\.latitude) == expected.map { ($0.latitude * 1e7).rounded() / 1e7 })
        // The reduced client: at most one obfuscated fix a minute, snapped to its grid.
        let rough = sandbox.records(file: sandbox.file("out/rough.jsonl"))
        #expect(rough.count == 6)
        #expect(rough.allSatisfy { $0.accuracy == .reduced && $0.altitude == nil && ($0.horizontalError ?? 0) >= 2000 })
        #expect(result.stdout.contains("logger: \(expected.count) fixes delivered -> \(sandbox.file("out/logger.jsonl"))"))
        #expect(result.stdout.contains("epochs: 360, usable fixes 360"))
        #expect(result.stdout.contains("bad checksums 0"))
    }

    /// fixtures/receivers: a good receiver for 20 s and a poor one 30 m north for 40 s (docs/sources.md "Several receivers").
    static let good = PackagePaths.path("fixtures/receivers/good.nmea")
    static let poor = PackagePaths.path("fixtures/receivers/poor.nmea")
    /// The good recording's last epoch (2026-03-14 09:30:19 UTC) and the poor one's.
    static let goodEnd = 1_773_480_619.0
    static let poorEnd = 1_773_480_639.0

    @Test func twoRecordingsFollowTheBetterReceiverThenFailOverOnceAndReplayByteForByte() async throws {
        let sandbox = try DaemonSandbox("replay-receivers")
        try sandbox.writeConfig(port: 2947, clients: DaemonSandbox.logger(filter: "none"))
        var logs: [[UInt8]] = []
        for run in 0..<2 {
            let out = sandbox.file("out\(run)")
            let result = try await sandbox.runLocationd(
                ["replay", Self.good, Self.poor, "--config", sandbox.configPath, "--log-dir", out])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("replayed \(Self.good), \(Self.poor):"), "\(result.stdout)")
            #expect(result.stdout.contains("epochs: 60, usable fixes 60"), "\(result.stdout)")
            logs.append(try FileIO.read(out + "/logger.jsonl"))
        }
        #expect(logs[1] == logs[0], "the same recordings give the same log")
        let records = sandbox.records(file: sandbox.file("out0/logger.jsonl"))
        // Every record names its receiver by its path; one epoch at most once, in time order.
        #expect(records.allSatisfy { $0.device == Self.good || $0.device == Self.poor })
        for (a, b) in zip(records, records.dropFirst()) { #expect(a.time < b.time, "\(a.text) then \(b.text)") }
        // The good receiver for every epoch while both report, then the poor one after `failover` (3 s): one switch.
        #expect(records.filter { $0.time <= Self.goodEnd }.map(\.device) == Array(repeating: Self.good, count: 20))
        let devices = records.map(\.device)
        #expect(zip(devices, devices.dropFirst()).filter { $0 != $1 }.count == 1)
        let after = try #require(records.first { $0.device == Self.poor }, "never failed over")
        #expect(after.time > Self.goodEnd && after.time <= Self.goodEnd + 4, "first poor fix at \(after.time)")
        #expect(records.last?.time == Self.poorEnd)
    }

    /// The same two receivers as gpsd reported them (`gpspipe -w`; fixtures/receivers/README.md).
    static let gpsdLog = PackagePaths.path("fixtures/receivers/two-receivers.json")

    @Test func aGPSDLogOfTwoReceiversIsReplayedByTheSameRuleAndItsDamageIsReportedByLine() async throws {
        let sandbox = try DaemonSandbox("replay-gpsd")
        try sandbox.writeConfig(port: 2947, clients: DaemonSandbox.logger(filter: "none"))
        let result = try await sandbox.runLocationd(
            ["replay", Self.gpsdLog, "--config", sandbox.configPath, "--log-dir", sandbox.file("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("gpsd epochs: 60 (/dev/pts/1 20, /dev/pts/2 40), usable fixes 60"), "\(result.stdout)")
        let records = sandbox.records(file: sandbox.file("out/logger.jsonl"))
        #expect(records.allSatisfy { $0.device == "/dev/pts/1" || $0.device == "/dev/pts/2" })
        #expect(records.filter { $0.time <= Self.goodEnd }.map(\.device) == Array(repeating: "/dev/pts/1", count: 20))
        let devices = records.map(\.device)
        #expect(zip(devices, devices.dropFirst()).filter { $0 != $1 }.count == 1)
        #expect(result.stderr.contains("following /dev/pts/2: /dev/pts/1 gave no usable fix for 3.0 s"), "\(result.stderr)")

        // Broken off, garbled and cut off: each named by its line, the rest replayed.
        var lines = try FileIO.read(Self.gpsdLog).split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
        lines[29] = Array(lines[29].prefix(40))
        lines[30] = Array("\u{7f}ELF".utf8)
        lines.removeLast()  // the empty piece after the last line end
        lines[lines.count - 1] = Array(lines[lines.count - 1].prefix(25))
        try FileIO.write(sandbox.file("garbled.json"), Array(lines.joined(separator: [10])))
        let garbled = try await sandbox.runLocationd(
            ["replay", sandbox.file("garbled.json"), "--config", sandbox.configPath, "--log-dir", sandbox.file("garbled")])
        #expect(garbled.status == 0, "\(garbled.stderr)")
        #expect(garbled.stderr.contains("\(sandbox.file("garbled.json")): line 30: not JSON ("), "\(garbled.stderr)")
        #expect(garbled.stderr.contains("\(sandbox.file("garbled.json")): line 31: not a JSON object"))
        #expect(garbled.stderr.contains("line 131: cut off at the end of the log (no line end): not read"))
        #expect(garbled.stdout.contains("+ unreadable 2 + cut off at the end 1"), "\(garbled.stdout)")
        #expect(!sandbox.records(file: sandbox.file("garbled/logger.jsonl")).isEmpty)
    }

    @Test func theSameFileConfigAndEventsGiveByteIdenticalLogs() async throws {
        let sandbox = try Self.sandbox("replay-same")
        let events = """
            {"at":"2026-03-14T09:31:00Z","cmd":"accuracy","client":"logger","accuracy":"reduced"}
            {"at":"2026-03-14T09:32:30Z","cmd":"accuracy","client":"logger","accuracy":"full"}
            {"at":"2026-03-14T09:33:00Z","cmd":"services","state":"off"}
            {"at":"2026-03-14T09:33:20Z","cmd":"services","state":"on"}
            """
        try FileIO.write(sandbox.file("events.jsonl"), Array(events.utf8))
        var logs: [[[UInt8]]] = []
        for run in 0..<3 {
            let out = sandbox.file("out\(run)")
            let result = try await replay(sandbox, ["--events", sandbox.file("events.jsonl"), "--log-dir", out])
            #expect(result.status == 0, "\(result.stderr)")
            logs.append([try FileIO.read(out + "/logger.jsonl"), try FileIO.read(out + "/rough.jsonl")])
        }
        #expect(!logs[0][0].isEmpty && !logs[0][1].isEmpty)
        #expect(logs[1] == logs[0])
        #expect(logs[2] == logs[0])
    }

    @Test func anAuthorizeNeverInTheMiddleStopsLoggingUntilAlways() async throws {
        let sandbox = try Self.sandbox("replay-events")
        let events = """
            # take the permission away for a minute and a half
            {"at":"2026-03-14T09:32:00Z","cmd":"authorize","client":"logger","status":"never"}
            {"at":"2026-03-14T09:33:30Z","cmd":"authorize","client":"logger","status":"always"}
            """
        try FileIO.write(sandbox.file("events.jsonl"), Array(events.utf8))
        let result = try await replay(sandbox, ["--events", sandbox.file("events.jsonl"), "--log-dir", sandbox.file("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("events: 2 applied, 0 refused"))
        let never = try #require(UTCTime.parse("2026-03-14T09:32:00Z"))
        let always = try #require(UTCTime.parse("2026-03-14T09:33:30Z"))
        let times = sandbox.records(file: sandbox.file("out/logger.jsonl")).map(\.time)
        #expect(times.contains { $0 < never })
        #expect(!times.contains { $0 >= never && $0 < always })
        // The first fix after the grant starts a new run: delivered whatever its distance.
        #expect(times.first { $0 >= always } == always)
        // Without the events the gap is not there.
        let plain = try await replay(sandbox, ["--log-dir", sandbox.file("plain")])
        #expect(plain.status == 0)
        #expect(sandbox.records(file: sandbox.file("plain/logger.jsonl")).contains { $0.time >= never && $0.time < always })
    }

    @Test func theStateFileItStartsFromIsOnlyRead() async throws {
        let sandbox = try Self.sandbox("replay-state")
        let config = try DaemonConfig.parse(String(decoding: try FileIO.read(sandbox.configPath), as: UTF8.self), file: "x")
        var engine = Engine(settings: config.engineSettings, saved: nil, seed: 7)
        _ = engine.handle(.authorize(client: "logger", status: .never), now: 0)
        let state = StateCodec.encode(engine.savedState)
        try FileIO.write(sandbox.file("state.json"), state)
        let result = try await replay(sandbox, ["--state", sandbox.file("state.json"), "--log-dir", sandbox.file("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.records(file: sandbox.file("out/logger.jsonl")).isEmpty, "the saved never holds")
        #expect(try FileIO.read(sandbox.file("state.json")) == state)
        // A corrupt one is refused, and left exactly where and as it was.
        let garbage = Array("{\"version\":1,".utf8)
        try FileIO.write(sandbox.file("state.json"), garbage)
        let refused = try await replay(sandbox, ["--state", sandbox.file("state.json"), "--log-dir", sandbox.file("out2")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot start from the state file \(sandbox.file("state.json")): not JSON"))
        #expect(try FileIO.read(sandbox.file("state.json")) == garbage)
        #expect(try FileIO.list(sandbox.path).filter { $0.hasPrefix("state.json") } == ["state.json"])
    }

    @Test func badEventsAreRefusedWithTheirLineNumbers() async throws {
        let sandbox = try Self.sandbox("replay-bad")
        let events = """
            {"at":"2026-03-14T09:32:00Z","cmd":"authorize","client":"logger","status":"never"}
            {"at":"yesterday","cmd":"authorize","client":"logger","status":"never"}
            {"at":"2026-03-14T09:32:00Z","cmd":"status"}
            """
        try FileIO.write(sandbox.file("events.jsonl"), Array(events.utf8))
        let result = try await replay(sandbox, ["--events", sandbox.file("events.jsonl")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("events.jsonl: line 2: \"at\" must be ISO 8601"))
        #expect(result.stderr.contains("events.jsonl: line 3: \"status\" only reads state"))
        #expect(!FileIO.exists(sandbox.logPath()), "nothing was replayed")
    }

    @Test func anEventTheEngineRefusesIsReportedAndTheReplayGoesOn() async throws {
        let sandbox = try Self.sandbox("replay-refused")
        let events = #"{"at":"2026-03-14T09:31:00Z","cmd":"answer","client":"logger","answer":"deny"}"#
        try FileIO.write(sandbox.file("events.jsonl"), Array(events.utf8))
        let result = try await replay(sandbox, ["--events", sandbox.file("events.jsonl"), "--log-dir", sandbox.file("out")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("events: 0 applied, 1 refused"))
        #expect(result.stderr.contains("events line 1 (answer at 2026-03-14T09:31:00.000Z) refused: no-prompt"))
    }

    @Test func anUnreadableInputIsRefused() async throws {
        let sandbox = try Self.sandbox("replay-missing")
        let result = try await sandbox.runLocationd(["replay", sandbox.file("nope.nmea"), "--config", sandbox.configPath])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot read the input: open \(sandbox.file("nope.nmea")): No such file"))
    }
}
