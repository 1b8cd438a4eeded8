#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem
import LocationDaemon
import Testing
import TestSupport

/// Fault suite (scripts/faults): a symbolic link planted at every path the
/// daemon writes — a client's log, the audit log, the state file, the old
/// fixed temporary name, an MQTT cursor, a log renamed by logrotate before
/// SIGHUP, replay's output — is refused with a message naming the path, and
/// the file it points to is never touched (the torn-tail repair included).
@Suite(.timeLimit(.minutes(30)), .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct SymlinkFaults {
    /// A torn last line the tail repair would cut, if it ever opened the target.
    static let victimText = "someone else's file\nwith a torn last line"
    static let refusal = "it is a symbolic link, and locationd never writes through one"

    /// What one planted link gave: whether the daemon said so, and whether the target is as it was.
    struct Outcome {
        var refused: Bool
        var untouched: Bool
    }

    /// A daemon reading walk.nmea for the logger, which also publishes to a broker that is not there.
    static func sandbox() throws -> DaemonSandbox {
        let sandbox = try DaemonSandbox("symlinks")
        let broker = try GPSFake.freePort()
        try sandbox.writeNMEAConfig(
            device: PackagePaths.fixture("walk.nmea"),
            clients: DaemonSandbox.logger(filter: "none") + "\nmqtt_broker = 127.0.0.1:\(broker)\n")
        try FileSystem.makeDirectories(sandbox.logDirectory, mode: 0o750)
        try FileSystem.makeDirectories(sandbox.stateDirectory, mode: 0o750)
        return sandbox
    }

    /// Plants a link to a fresh victim at `path`, runs `body`, removes the link; the outcome.
    static func planted(
        at path: String, in sandbox: DaemonSandbox, _ body: () async throws -> Bool
    ) async throws -> Outcome {
        let victim = sandbox.file("victim-\(FileSystem.fileName(of: path))")
        try FileIO.write(victim, victimText)
        #expect(symlink(victim, path) == 0)
        let refused = try await body()
        var info = stat()
        if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK { unlink(path) }
        let untouched = FileIO.text(victim) == victimText
        #expect(refused, "\(path): no refusal naming it")
        #expect(untouched, "\(path): the link's target changed")
        return Outcome(refused: refused, untouched: untouched)
    }

    /// Starts the daemon and expects it not to start, saying why.
    static func refusesToStart(_ sandbox: DaemonSandbox, _ path: String) async throws -> Bool {
        let daemon = try sandbox.startDaemon()
        guard await daemon.wait(timeout: 60) else {
            daemon.kill()
            Issue.record("the daemon started on a link at \(path): \(daemon.stderr)")
            return false
        }
        return daemon.exitStatus != 0 && daemon.stderr.contains("refused \(path): \(refusal)")
    }

    /// Starts the daemon, expects it to run and to say `message` (and the refusal), then stops it.
    static func runsSaying(_ sandbox: DaemonSandbox, _ message: String) async throws -> Bool {
        let daemon = try sandbox.startDaemon()
        let said = await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") && daemon.stderr.contains(message) }
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
        #expect(said, "\(message): \(daemon.stderr)")
        #expect(daemon.stderr.contains(refusal), "\(daemon.stderr)")
        return said && daemon.stderr.contains(refusal)
    }

    @Test func aSymlinkAtEveryPathTheDaemonWritesIsRefusedAndItsTargetUntouched() async throws {
        let sandbox = try Self.sandbox()
        var outcomes: [String: Outcome] = [:]

        let log = sandbox.logPath()
        outcomes["log"] = try await Self.planted(at: log, in: sandbox) { try await Self.refusesToStart(sandbox, log) }
        let audit = sandbox.logDirectory + "/audit.jsonl"
        outcomes["audit"] = try await Self.planted(at: audit, in: sandbox) { try await Self.refusesToStart(sandbox, audit) }
        outcomes["state"] = try await Self.planted(at: sandbox.statePath, in: sandbox) {
            try await Self.runsSaying(sandbox, "state file \(sandbox.statePath) cannot be used (")
        }
        let cursor = sandbox.stateDirectory + "/mqtt-logger.cursor"
        outcomes["mqtt-cursor"] = try await Self.planted(at: cursor, in: sandbox) {
            try await Self.runsSaying(sandbox, "logger: MQTT cursor:")
        }
        // state.json.tmp was the fixed temporary name: a link there is never opened, and saves go on.
        let temporary = sandbox.statePath + ".tmp"
        outcomes["state-temporary"] = try await Self.planted(at: temporary, in: sandbox) {
            let daemon = try sandbox.startDaemon()
            #expect(await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") }, "\(daemon.stderr)")
            daemon.signal(SIGTERM)
            #expect(await daemon.wait(timeout: 60))
            // Saved anew through a temporary of its own (the link is not it).
            return daemon.exitStatus == 0 && (try? StateCodec.decode(try FileIO.read(sandbox.statePath))) != nil
        }

        // logrotate renames the log; before SIGHUP someone plants a link at its name.
        let daemon = try sandbox.startDaemon()
        // Ready (its SIGHUP handler in place) and logging: the log holds lines from the runs before.
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") && daemon.stderr.contains("source: fix") }, "\(daemon.stderr)")
        #expect(rename(log, log + ".1") == 0)
        outcomes["rotated-log"] = try await Self.planted(at: log, in: sandbox) {
            daemon.signal(SIGHUP)
            return await waitUntil(timeout: 60) { daemon.stderr.contains("cannot reopen \(log) (refused \(log): \(Self.refusal)") }
        }
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.terminatingSignal.map(String.init) ?? "-"): \(daemon.stderr)")
        #expect(!sandbox.records(file: log + ".1").isEmpty, "the renamed log is whole")

        // replay writes logs too.
        let out = sandbox.file("out")
        try FileSystem.makeDirectories(out, mode: 0o750)
        outcomes["replay-log"] = try await Self.planted(at: out + "/logger.jsonl", in: sandbox) {
            let replay = try await sandbox.runLocationd(
                ["replay", PackagePaths.fixture("walk.nmea"), "--config", sandbox.configPath, "--log-dir", out])
            return replay.status != 0 && replay.stderr.contains("refused \(out)/logger.jsonl: \(Self.refusal)")
        }

        let names = outcomes.keys.sorted()
        let refused = names.filter { outcomes[$0]!.refused }.count
        let untouched = names.filter { outcomes[$0]!.untouched }.count
        FaultReport.figure(
            "symlinks",
            "\(refused)/\(names.count) refused with a message naming the path (the old temporary name: never opened, saves go on), "
                + "\(untouched)/\(names.count) targets untouched (\(names.joined(separator: ", ")))")
    }
}
