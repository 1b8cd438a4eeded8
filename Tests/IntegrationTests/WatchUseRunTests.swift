#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationValues
import Testing
import TestSupport

/// #32: `watch` shows every change of what a client gets — a session begun or ended, updates
/// started or stopped, a locate pending and how it ended — so deliveries never stop with
/// nothing on screen. A watcher of another uid (nobody, via setpriv) gets them too: they hold
/// no coordinate.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: getuid() == 0, "needs root to run locationctl as another user"),
    .enabled(if: ExternalTool.isAvailable("setpriv"), "needs setpriv (util-linux)"),
    .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct WatchUseRunTests {
    static func useEvents(_ watcher: ChildProcess) -> [UseChange] {
        watcher.stdout.split(separator: "\n").compactMap { line in
            guard let value = try? JSONValue.parse(Array(line.utf8)), value["event"] == .string("use") else { return nil }
            return try? UseChange(json: value)
        }
    }

    @Test func everyChangeOfWhatAClientAsksForIsAUseEventWithItsReason() async throws {
        let sandbox = try DaemonSandbox("watch-use")
        let receiver = try NMEAFakeReceiver()
        try sandbox.directory.link("gps", to: receiver.devicePath)
        try sandbox.writeNMEAConfig(device: sandbox.file("gps"), clients: DaemonSandbox.logger(filter: "none"))
        let daemon = try sandbox.startDaemon()
        defer { daemon.kill() }
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") }, "\(daemon.stderr)")
        sandbox.openSocketToEveryone()
        let watcher = try ChildProcess(
            ReadTierRunTests.nobody + [
                PackagePaths.product("locationctl"), "--socket", sandbox.socketPath, "--json", "watch", "logger",
            ],
            environment: .only([:]), stdoutPath: sandbox.file("watch.jsonl"), stderrPath: sandbox.file("watch.err"))
        defer { watcher.kill() }
        try #require(await waitUntil(timeout: 60) { watcher.stdout.contains(#""event":"authorization""#) }, "\(watcher.stdout)")
        let plane = ControlPlane(sandbox: sandbox)
        for command in [["session", "logger", "end"], ["stop", "logger"], ["locate", "logger", "--timeout", "1"]] {
            // `locate` waits for its fix and exits 1 when none comes; the daemon's locate is what is watched.
            _ = try await plane.ctl(command)
        }
        _ = try await plane.ctl(["session", "logger", "begin"])
        _ = try await plane.ctl(["start", "logger"])
        try #require(await waitUntil(timeout: 30) { Self.useEvents(watcher).count >= 6 }, "\(watcher.stdout)")
        let events = Self.useEvents(watcher)
        #expect(
            events.map(\.kind) == [.sessionEnd, .stop, .locate, .locateEnded, .sessionBegin, .start], "\(watcher.stdout)")
        #expect(events[1].message == "logger stopped updating" && !events[1].updating, "\(events[1])")
        #expect(events[2].locatePending && events[3].message.contains("locate timed out: no fix was delivered within 1 s of locate: "))
        #expect(events[4].inUse && events[5].updating)
        #expect(!watcher.stdout.contains(#""lat""#), "no coordinate: \(watcher.stdout)")
        let text = try await plane.ctl(["watch", "logger"], prefix: ["/usr/bin/timeout", "-s", "INT", "1"])
        #expect(!text.stdout.contains(" use"), "a new watcher gets the state, not the history: \(text.stdout)")
        receiver.unplug()
    }
}
