import LocationCore
import LocationValues
import LocationSystem
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A client's log that cannot be written is one `log` event on `watch` when it starts to fail
/// and one when it works again (#8: logging never stops silently), with the error and the
/// counts `status` shows in `logWrite` — never a coordinate. The failure is real: the daemon
/// runs under a file-size limit (`ulimit -f`, as `DiskFullFaults` without a tmpfs) and its log
/// is already at it; logrotate's rename and SIGHUP make room again.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct LogWriteEventRunTests {
    /// What a `log` event may carry: the client, its log's path and counts, the error, a sentence.
    static let members: Set<String> = [
        "event", "time", "client", "path", "open", "written", "held", "lost", "failing", "error", "since", "message",
    ]

    static func logEvents(_ watcher: ChildProcess) -> [JSONValue] {
        watcher.stdout.split(separator: "\n").compactMap { line in
            guard let value = try? JSONValue.parse(Array(line.utf8)), value["event"] == .string("log") else { return nil }
            return value
        }
    }

    static func watch(_ sandbox: DaemonSandbox, _ name: String, client: [String] = []) throws -> ChildProcess {
        let out = sandbox.file(name)
        return try ChildProcess(
            [PackagePaths.product("locationctl"), "--socket", sandbox.socketPath, "--json", "watch"] + client,
            environment: .only([:]), stdoutPath: out, stderrPath: out + ".err")
    }

    @Test func aLogThatCannotBeWrittenIsOneWatchEventAndWritingAgainAnother() async throws {
        let sandbox = try DaemonSandbox("log-event")
        let receiver = try NMEAFakeReceiver()
        try sandbox.directory.link("gps", to: receiver.devicePath)
        try sandbox.writeNMEAConfig(device: sandbox.file("gps"), clients: DaemonSandbox.logger(filter: "none"))
        // The log already holds 64 KiB, the limit the daemon runs under (ulimit -f 128 blocks of 512 bytes).
        try FileSystem.makeDirectories(sandbox.logDirectory, mode: 0o755)
        let log = sandbox.logPath()
        let filler = Array(repeating: UInt8(ascii: "x"), count: 63) + [0x0A]
        try FileIO.write(log, Array([[UInt8]](repeating: filler, count: 1024).joined()))
        let daemon = try sandbox.startDaemon(prefix: ["/bin/sh", "-c", "ulimit -f 128 && exec \"$@\"", "sh"])
        defer { daemon.kill() }
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") }, "\(daemon.stderr)")
        let watcher = try Self.watch(sandbox, "watch.jsonl")
        defer { watcher.kill() }
        try #require(await waitUntil(timeout: 60) { watcher.stdout.contains(#""event":"authorization""#) }, "\(watcher.stdout)")
        #expect(Self.logEvents(watcher).isEmpty, "nothing failing yet: \(watcher.stdout)")

        var second = 0
        func sendEpoch() {
            second += 1
            receiver.send(NMEASourceText.epoch(second % 60))
        }
        try #require(
            await waitUntil(timeout: 60) {
                sendEpoch()
                return !Self.logEvents(watcher).isEmpty
            }, "no log event: \(watcher.stdout) \(daemon.stderr)")
        // More fixes while it fails, each handed on by the source before the next is sent: held,
        // and not told again.
        let plane = ControlPlane(sandbox: sandbox)
        for _ in 0..<5 {
            let handed = try await plane.sourceFixes()
            sendEpoch()
            #expect(await plane.fixesCame(1, after: handed), "\(daemon.stderr)")
        }
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("cannot write \(log) (") }, "\(daemon.stderr)")
        let failing = try #require(Self.logEvents(watcher).first)
        #expect(failing["client"] == .string("logger") && failing["path"] == .string(log), "\(failing)")
        #expect(failing["failing"] == .bool(true) && failing["open"] == .bool(true), "\(failing)")
        #expect(failing["error"]?.stringValue?.hasPrefix("write \(log): File too large") == true, "\(failing)")
        #expect((failing["held"]?.intValue ?? 0) >= 1 && failing["lost"]?.intValue == 0 && failing["since"] != nil, "\(failing)")
        #expect(failing["message"]?.stringValue?.hasPrefix("cannot write \(log) (File too large)") == true, "\(failing)")
        let failingKeys = Set((failing.objectValue ?? []).map(\.0))
        #expect(failingKeys.isSubset(of: Self.members), "never a coordinate: \(failing)")
        // A watcher that comes while it fails is told first, as it is told the authorizations.
        let late = try Self.watch(sandbox, "late.jsonl", client: ["logger"])
        defer { late.kill() }
        #expect(
            await waitUntil(timeout: 60) { Self.logEvents(late).first?["failing"] == .bool(true) }, "\(late.stdout)")

        // Room again: logrotate renames the full log and sends SIGHUP; the next fix writes the held lines.
        #expect(rename(log, log + ".1") == 0)
        daemon.signal(SIGHUP)
        try #require(
            await waitUntil(timeout: 60) {
                sendEpoch()
                return Self.logEvents(watcher).count >= 2
            }, "no log event for the recovery: \(watcher.stdout) \(daemon.stderr)")
        for _ in 0..<5 {
            let handed = try await plane.sourceFixes()
            sendEpoch()
            #expect(await plane.fixesCame(1, after: handed), "\(daemon.stderr)")
        }
        let events = Self.logEvents(watcher)
        #expect(events.count == 2, "once to failing, once back: \(events)")
        let recovered = try #require(events.last)
        #expect(recovered["client"] == .string("logger") && recovered["failing"] == .bool(false), "\(recovered)")
        #expect(recovered["error"] == nil && recovered["since"] == nil && recovered["held"]?.intValue == 0, "\(recovered)")
        #expect((recovered["written"]?.intValue ?? 0) >= (failing["held"]?.intValue ?? 1), "the held lines written: \(recovered)")
        #expect(recovered["message"]?.stringValue?.hasPrefix("writing \(log) works again: ") == true, "\(recovered)")
        let recoveredKeys = Set((recovered.objectValue ?? []).map(\.0))
        #expect(recoveredKeys.isSubset(of: Self.members), "never a coordinate: \(recovered)")
        let text = try await ControlPlane(sandbox: sandbox).ctl(["watch"], prefix: ["/usr/bin/timeout", "-s", "INT", "1"])
        #expect(!text.stdout.contains(" log failing"), "works again: a new watcher is not told of a failure: \(text.stdout)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
        receiver.unplug()
    }
}
