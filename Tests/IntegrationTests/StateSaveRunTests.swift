#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import LocationDaemon
import LocationSystem
import Testing
import TestSupport

/// #32: a decision the daemon cannot save is never silent. The state directory is a tmpfs
/// made read-only (which refuses root too) while the daemon runs, or before it starts: every
/// change's reply says `"saved": false` with a warning, `status` says it first (text and
/// `stateSave`), a watcher gets a `state` event when saving fails and when it works again, and
/// a stop that cannot save names what the next start undoes.
@Suite(
    .timeLimit(.minutes(10)),
    .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: Tmpfs.canMount, "needs root with CAP_SYS_ADMIN to mount a tmpfs"))
struct StateSaveRunTests {
    /// A sandbox whose state directory is a tmpfs; the caller unmounts it.
    static func sandbox(_ label: String) throws -> ControlPlane {
        let sandbox = try DaemonSandbox(label)
        try FileSystem.makeDirectories(sandbox.stateDirectory, mode: 0o755)
        try #require(Tmpfs.mount(sandbox.stateDirectory, size: "64k"))
        try sandbox.writeNMEAConfig(
            device: PackagePaths.fixture("walk.nmea"), clients: DaemonSandbox.logger(filter: "none", authorization: "always"))
        return ControlPlane(sandbox: sandbox)
    }

    static func stateEvents(_ watcher: ChildProcess) -> [JSONValue] {
        watcher.stdout.split(separator: "\n").compactMap { line in
            guard let value = try? JSONValue.parse(Array(line.utf8)), value["event"] == .string("state") else { return nil }
            return value
        }
    }

    @Test func aStateDirectoryMadeReadOnlyWhileRunningIsSaidEverywhereUntilItCanBeSavedAgain() async throws {
        let plane = try Self.sandbox("state-ro")
        let sandbox = plane.sandbox
        defer { Tmpfs.unmount(sandbox.stateDirectory) }
        let daemon = try sandbox.startDaemon()
        defer { daemon.kill() }
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") }, "\(daemon.stderr)")
        let fine = try await plane.status()
        #expect(fine.stateSave?.ok == true && fine.stateSave?.path == sandbox.statePath, "\(String(describing: fine.stateSave))")
        let watcher = try ChildProcess(
            [PackagePaths.product("locationctl"), "--socket", sandbox.socketPath, "--json", "watch"],
            environment: .only([:]), stdoutPath: sandbox.file("watch.jsonl"), stderrPath: sandbox.file("watch.err"))
        defer { watcher.kill() }
        try #require(await waitUntil(timeout: 60) { watcher.stdout.contains(#""event":"authorization""#) }, "\(watcher.stdout)")

        try #require(Tmpfs.remount(sandbox.stateDirectory, readOnly: true))
        let revoke = try await plane.ctl(["--json", "authorize", "logger", "never"])
        #expect(revoke.status == 1, "a change that is not kept fails the command: \(revoke.stdout)")
        let reply = try JSONValue.parse(Array(revoke.stdout.utf8))
        #expect(reply["ok"] == .bool(true) && reply["changed"] == .bool(true), "in force: \(reply)")
        #expect(reply["saved"] == .bool(false), "\(reply)")
        let warning = try #require(reply["warning"]?.stringValue)
        #expect(warning.hasPrefix("not saved: ") && warning.contains("Read-only file system"), "\(warning)")
        #expect(warning.contains("a restart now would undo: logger: never (a restart brings back always)"), "\(warning)")
        let text = try await plane.ctl(["authorize", "logger", "while-using"])
        #expect(text.status == 1 && text.stdout.contains("locationctl: warning: not saved: "), "\(text.stdout)")

        let status = try await plane.status()
        let save = try #require(status.stateSave)
        #expect(!save.ok && save.since != nil && save.error?.contains("Read-only file system") == true, "\(save)")
        #expect(save.unsaved == ["logger: while-using (a restart brings back always)"], "\(save.unsaved)")
        // The text status says it first, to every reader: a peer of another uid too (no coordinate in it).
        sandbox.openSocketToEveryone()
        for prefix in [[], ReadTierRunTests.nobody] {
            let shown = try await plane.ctl(["status"], prefix: prefix)
            #expect(shown.stdout.hasPrefix("WARNING: cannot save the state to \(sandbox.statePath) since "), "\(prefix): \(shown.stdout)")
            #expect(shown.stdout.contains("; a restart now would undo: logger: while-using (a restart brings back always)"), "\(shown.stdout)")
        }
        try #require(await waitUntil(timeout: 30) { Self.stateEvents(watcher).count == 1 }, "\(watcher.stdout)")
        #expect(Self.stateEvents(watcher).first?["ok"] == .bool(false))
        #expect(daemon.stderr.contains("cannot save the state to \(sandbox.statePath) ("), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("the previous state file is kept"), "\(daemon.stderr)")

        // Writable again: the one-second retry saves it, and everyone hears.
        try #require(Tmpfs.remount(sandbox.stateDirectory, readOnly: false))
        try #require(await waitUntil(timeout: 30) { Self.stateEvents(watcher).count == 2 }, "\(watcher.stdout) \(daemon.stderr)")
        #expect(Self.stateEvents(watcher).last?["ok"] == .bool(true))
        #expect(try await plane.status().stateSave?.ok == true)
        let saved = try StateCodec.decode(try FileIO.read(sandbox.statePath))
        #expect(saved.client("logger")?.status == .whileUsing)
        let again = try await plane.ctl(["--json", "authorize", "logger", "never"])
        #expect(again.status == 0 && !again.stdout.contains("\"saved\""), "\(again.stdout)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0 && daemon.stderr.contains("stopped cleanly"), "\(daemon.stderr)")
    }

    @Test func aRevocationThatCannotBeSavedIsWarnedAndItsLossNamedAtTheStop() async throws {
        let plane = try Self.sandbox("state-start")
        let sandbox = plane.sandbox
        defer { Tmpfs.unmount(sandbox.stateDirectory) }
        // No state file, and none can be written: the daemon starts and says so (locationd(8)).
        try #require(Tmpfs.remount(sandbox.stateDirectory, readOnly: true))
        let daemon = try sandbox.startDaemon(environment: [:])
        defer { daemon.kill() }
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") }, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("there is no state file yet"), "\(daemon.stderr)")
        #expect(!daemon.stderr.contains("the previous state file is kept"), "\(daemon.stderr)")
        #expect(try await plane.status().stateSave?.ok == false)
        let revoke = try await plane.ctl(["authorize", "logger", "never"])
        #expect(revoke.status == 1, "\(revoke.stdout)")
        #expect(revoke.stdout.contains("there is no state file yet, so a restart starts from the configuration"), "\(revoke.stdout)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 1, "a stop that loses a decision is no clean stop: \(daemon.stderr)")
        #expect(!daemon.stderr.contains("stopped cleanly"), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("stopped, but the state could not be saved to \(sandbox.statePath): the next start undoes: "), "\(daemon.stderr)")
    }

    /// #39: check-config finds the state directory `run` cannot write, by `run`'s own probe.
    @Test func checkConfigWarnsOfAStateDirectoryTheDaemonCouldNotWrite() async throws {
        let plane = try Self.sandbox("state-check")
        let sandbox = plane.sandbox
        defer { Tmpfs.unmount(sandbox.stateDirectory) }
        let writable = try await sandbox.runLocationd(["check-config", "--config", sandbox.configPath])
        #expect(writable.status == 0 && !writable.stderr.contains("warning"), "\(writable.stderr)")
        try #require(Tmpfs.remount(sandbox.stateDirectory, readOnly: true))
        let result = try await sandbox.runLocationd(["check-config", "--config", sandbox.configPath])
        #expect(result.status == 0, "the daemon would still run: \(result.stderr)")
        #expect(
            result.stderr.contains("locationd: warning: state_dir \(sandbox.stateDirectory) cannot be written by uid 0 (")
                && result.stderr.contains("Read-only file system"), "\(result.stderr)")
    }
}

