import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem
import LocationDaemon
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `locationd run` as a process, fed by a real gpsd (gpsfake), with real
/// signals, files and sockets. Serialized: each test keeps gpsd and the
/// daemon busy, and the machine is small.
@Suite(
    .timeLimit(.minutes(10)),
    .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
struct DaemonRunTests {
    static let walk = PackagePaths.fixture("walk.nmea")
    /// The gpsd source's reconnect waits (docs/sources.md, "Reconnecting"): 0.125 s doubling to the cap.
    static let backoffCap = 0.75
    static let backoff: [Double] = (0..<8).map { min(backoffCap, 0.125 * Double(1 << $0)) }

    /// The 5 m chain of the walk, as docs/authorization.md §4 defines it.
    static func expectedChain() throws -> [Fix] {
        distanceFilterChain(try nmeaFixes(walk), filter: 5)
    }

    /// The 5 m chain of the walk from the first fix gpsd reported, as a plain
    /// watcher on the same gpsd saw it. gpsd 3.22 does not report the first
    /// cycles it reads while it learns which sentence ends a cycle (and the
    /// date comes only with RMC; gpsdecode skips the first cycle too,
    /// docs/sources.md). The daemon watches before the walk is let go, so
    /// the log starts exactly at gpsd's first fix, and from there on is
    /// exactly the chain.
    static func expectedChain(
        loggedFrom records: [LogRecord], gpsd reference: GPSDJSONWatcher, daemon: ChildProcess,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Fix] {
        let fixes = try nmeaFixes(walk)
        let first = try #require(reference.firstFixTime, "gpsd reported no fix", sourceLocation: sourceLocation)
        let start = try #require(records.first?.time, "nothing was logged", sourceLocation: sourceLocation)
        #expect(
            abs(start - first) < 0.0005,
            "the log starts at gpsd's first fix \(UTCTime.format(first)), not at \(UTCTime.format(start)); the daemon said: \(daemon.stderr)",
            sourceLocation: sourceLocation)
        return distanceFilterChain(fixes.filter { ($0.time ?? 0) >= first - 0.0005 }, filter: 5)
    }

    /// Connects a reference watcher to gpsfake's gpsd, starts the daemon on the
    /// sandbox's configuration, and once both watch, lets the walk go.
    static func startWatched(_ fake: GPSFake, _ sandbox: DaemonSandbox) async throws -> (ChildProcess, GPSDJSONWatcher) {
        let reference = try await GPSDJSONWatcher.connect(port: fake.port)
        let daemon = try sandbox.startDaemon()
        try #require(await Self.waitForConnection(daemon), "\(daemon.stderr)")
        try #require(await waitUntil { reference.isWatching }, "the reference watcher got no WATCH reply")
        fake.release()
        return (daemon, reference)
    }

    /// Waits (boundedly) until the log holds the whole chain, up to the walk's last chained fix.
    static func waitForWholeChain(_ sandbox: DaemonSandbox) async {
        let fixes = (try? nmeaFixes(walk)) ?? []
        await waitUntil(timeout: 60) {
            let records = sandbox.records()
            guard let first = records.first?.time else { return false }
            let chain = distanceFilterChain(fixes.filter { ($0.time ?? 0) >= first - 0.0005 }, filter: 5)
            return records.count >= chain.count
        }
    }

    /// The records match the fixes: same times (to the ms), positions within a
    /// unit of the 7th decimal (gpsd and our parser round independently).
    static func expect(_ records: [LogRecord], toBe fixes: [Fix], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(records.count == fixes.count, sourceLocation: sourceLocation)
        for (record, fix) in zip(records, fixes) {
            let same =
                abs(record.time - (fix.time ?? 0)) < 0.0005 && abs(record.latitude - fix.latitude) < 1.5e-7
                && abs(record.longitude - fix.longitude) < 1.5e-7
            if !same {
                Issue.record(
                    "log \(record.text) differs from the chain's fix at \(UTCTime.format(fix.time ?? 0)) \(fix.latitude),\(fix.longitude)",
                    sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// Waits for the daemon to report its connection to gpsd.
    static func waitForConnection(_ daemon: ChildProcess, count: Int = 1) async -> Bool {
        await waitUntil(timeout: 60) {
            let stderr = daemon.stderr
            return stderr.occurrences(of: "gpsd: connected to") + stderr.occurrences(of: "gpsd: reconnected to") >= count
        }
    }

    @Test func aWalkThroughGPSDIsLoggedAsItsFiveMetreChain() async throws {
        let sandbox = try DaemonSandbox("walk")
        let fake = try await GPSFake.start(log: Self.walk, options: .init(cycle: 0.004, once: true, gated: true))
        try sandbox.writeConfig(port: fake.port)
        let (daemon, reference) = try await Self.startWatched(fake, sandbox)
        #expect(await fake.waitForExit(timeout: 120), "gpsfake did not finish the walk")
        #expect(try Self.expectedChain().count > 100, "the walk moves")
        await Self.waitForWholeChain(sandbox)
        // #37: libgps is not linked; the gpsd source opened it when it connected
        // (MQTTRunTests: an NMEA daemon never maps it).
        let names = mappedLibraries(daemon.pid)
        #expect(names.contains { $0.hasPrefix("libgps.so.") }, "\(names.sorted())")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
        let records = sandbox.records()
        Self.expect(records, toBe: try Self.expectedChain(loggedFrom: records, gpsd: reference, daemon: daemon))
    }

    @Test func gpsdRestartedOnAnOlderRecordingReconnectsAndLogsOnInANewTimeBase() async throws {
        let sandbox = try DaemonSandbox("restart")
        let first = try await GPSFake.start(log: Self.walk, options: .init(cycle: 0.004, once: true, gated: true))
        let port = first.port
        try sandbox.writeConfig(port: port)
        let (daemon, reference) = try await Self.startWatched(first, sandbox)
        try #require(await waitUntil(timeout: 60) { sandbox.records().count >= 40 }, "nothing logged: \(daemon.stderr)")
        // gpsd goes away mid-walk, as a crash or `systemctl restart gpsd` would do it.
        first.kill()
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("lost the connection") }, "\(daemon.stderr)")
        let beforeRestart = sandbox.records().count
        // gpsd stays away until the backoff has reached its cap (0.125 + 0.25 + 0.5 s, then 0.75 s):
        // status says so while it lasts, with the numbers (#8).
        let control = ControlPlane(sandbox: sandbox)
        var during: SourceOutage?
        try #require(
            await waitUntilAsync(timeout: 60) {
                during = try await control.status().sourceOutage
                return (during?.waits ?? 0) >= 6
            }, "status never showed the outage: \(daemon.stderr)")
        let seen = try #require(during)
        #expect(seen.longestWait == Self.backoffCap && seen.lastWait == Self.backoffCap, "\(seen)")
        #expect(seen.attempts == seen.waits - 1, "a wait before each attempt, the one under way included: \(seen)")
        let text = try await control.ctl(["status"]).stdout
        #expect(text.contains("not connected (retrying)") && text.contains(" attempts failed in "), "\(text)")
        // A new gpsd on the same port plays the walk again from the start: an
        // older recording. Its fixes start a new time base and are logged
        // (issue #8: nothing blocks), the whole 5 m chain again.
        let second = try await GPSFake.start(
            log: Self.walk, options: .init(cycle: 0.004, once: true, gated: true, port: port), replacing: first)
        try #require(await Self.waitForConnection(daemon, count: 2), "no reconnect: \(daemon.stderr)")
        // What the daemon says it waited (docs/sources.md): the sequence, and never more than the cap,
        // so gpsd listening again is reconnected to within a second (#8) however long it was away.
        let away = try #require(ReconnectNotice.all(in: daemon.stderr).first, "no waits in: \(daemon.stderr)")
        #expect(away.attempts == away.waitCount && away.waitCount >= seen.waits, "\(away)")
        #expect(try await control.status().sourceOutage == nil, "connected again: no outage in status")
        #expect(away.waits == Self.backoff.prefix(away.waits.count).map { $0 }, "\(away)")
        #expect(away.longest == Self.backoffCap, "the waits reached the cap and stayed there: \(away)")
        second.release()
        #expect(await second.waitForExit(timeout: 120))
        let chain = try Self.expectedChain(loggedFrom: sandbox.records(), gpsd: reference, daemon: daemon)
        await waitUntil(timeout: 60) { sandbox.records().count >= beforeRestart + chain.count }
        // The walk took gpsd's session past 5 s, a healthy one: when this gpsd goes (gpsfake exits
        // after the walk) the backoff starts over, and a gpsd back at once is tried within 125 ms.
        let healthy = "lost the connection after "
        try #require(await waitUntil(timeout: 60) { daemon.stderr.occurrences(of: healthy) >= 2 }, "\(daemon.stderr)")
        let secondLoss = daemon.stderr.components(healthy)[2].prefix { $0 != "\n" }
        #expect(secondLoss.hasSuffix("(the backoff starts over)"), "\(secondLoss)")
        let third = try await GPSFake.start(
            log: Self.walk, options: .init(cycle: 0.004, once: true, gated: true, port: port), replacing: second)
        defer { third.stop() }
        try #require(await Self.waitForConnection(daemon, count: 3), "no second reconnect: \(daemon.stderr)")
        let notices = ReconnectNotice.all(in: daemon.stderr)
        try #require(notices.count == 2, "\(daemon.stderr)")
        let again = notices[1]
        #expect(again.waits.first == Self.backoff[0], "the backoff started over: \(again)")
        #expect(again.waits == Self.backoff.prefix(again.waits.count).map { $0 } && again.longest <= Self.backoffCap, "\(again)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0)
        let records = sandbox.records()
        let times = records.map(\.time)
        let back = zip(times, times.dropFirst()).enumerated().filter { $0.element.1 < $0.element.0 }.map { $0.offset + 1 }
        try #require(back.count == 1, "one step back, where the second recording starts: \(back)")
        let restart = back[0]
        #expect(restart >= beforeRestart)
        // Before and after: each a run of the chain, no duplicated, reordered or torn line.
        Self.expect(Array(records[..<restart]), toBe: Array(chain.prefix(restart)))
        Self.expect(Array(records[restart...]), toBe: chain)
        // Said once, with the size of the jump, at warning priority — when the new gpsd's pty has the
        // old one's path. A new path is another receiver with its own clock (docs/sources.md, "Several
        // receivers"): no jump, the choice moves to it once the old one has been silent.
        let before = records[restart - 1].device, after = records[restart].device
        if before == after {
            #expect(daemon.stderr.occurrences(of: "receiver time went back") == 1, "\(daemon.stderr)")
        } else {
            #expect(daemon.stderr.occurrences(of: "receiver time went back") == 0, "\(daemon.stderr)")
            #expect(daemon.stderr.occurrences(of: "following \(after ?? "")") >= 1, "\(daemon.stderr)")
        }
        #expect(daemon.stderr.contains("location-unknown"), "clients were told about the outage")
        // Fault suite (scripts/faults).
        let (_, problems) = LogFileRecords.read(sandbox.logPath())
        let repeated = zip(times, times.dropFirst()).filter { $0 >= $1 }.count
        let awayWaits: String = away.waits.map { String($0) }.joined(separator: ", ")
        let firstAgain: Double = again.waits.first ?? 0
        let backoffFigure = "\(away.attempts) attempts, waits \(awayWaits) s (the longest \(away.longest) s); "
            + "after a healthy session the first wait \(firstAgain) s"
        FaultReport.figure(
            "gpsd-restart",
            "gpsd killed after \(beforeRestart) lines, away until status said \(seen.summary), started again: reconnected, "
                + "\(backoffFigure), "
                + "\(records.count - beforeRestart) lines after, "
                + "\(repeated) repeated or out of order, \(problems.count) torn; location-unknown told: "
                + "\(daemon.stderr.contains("location-unknown") ? "yes" : "no")")
    }

    /// Fault suite (scripts/faults): `LOCATIOND_FAULTS_KILLS` SIGKILLs (50) at random moments
    /// of fsync = always logging. Every line seen in the file before a kill is there after it,
    /// and once the next daemon has started no line of the log is torn.
    @Test func sigkillAtRandomMomentsLeavesALogThatParsesAndKeepsEveryWrittenLine() async throws {
        let sandbox = try DaemonSandbox("sigkill")
        let kills = FaultReport.size("LOCATIOND_FAULTS_KILLS", default: 50)
        let track = try await sandbox.longTrack(sentences: 30_000 + kills * 1_000)
        let fake = try await GPSFake.start(log: track, options: .init(cycle: 0.002, once: true, gated: false))
        try sandbox.writeConfig(port: fake.port, fsync: "always", clients: DaemonSandbox.logger(filter: "none"))
        var random = SplitMix64(state: 0x5EED_0F_D1E5)
        var previous: [UInt8] = []
        var repairsForced = 0
        var kept = 0
        var torn = 0
        var linesSeen = 0
        for round in 0..<kills {
            let daemon = try sandbox.startDaemon()
            // Every restart repaired the log before appending: what was there, up to its
            // last newline, is still there, and everything parses.
            let whole = wholeLines(previous)
            try #require(
                await waitUntil(timeout: 60) { sandbox.logBytes().count > whole.count + 200 },
                "round \(round): the daemon did not log: \(daemon.stderr)")
            let restarted = sandbox.logBytes()
            let problems = LogFileRecords.parse(wholeLines(restarted), name: "log").problems
            torn += problems.count
            #expect(problems.isEmpty, "round \(round): after the restart: \(problems)")
            // A random moment to kill it at is the point (any moment must keep every line): not a wait.
            await pause(Double(random.next() % 250) / 1000)
            let seen = sandbox.logBytes()
            daemon.signal(SIGKILL)
            #expect(await daemon.wait(timeout: 60))
            #expect(daemon.terminatingSignal == SIGKILL)
            let after = sandbox.logBytes()
            #expect(Array(after.prefix(whole.count)) == whole, "round \(round): lines from before the restart changed")
            let seenWhole = wholeLines(seen)
            let keptAll = Array(after.prefix(whole.count)) == whole && Array(after.prefix(seenWhole.count)) == seenWhole
            #expect(keptAll, "round \(round): a line seen before the kill is gone")
            if keptAll { kept += 1 }
            linesSeen = seenWhole.count { $0 == 0x0A }
            previous = after
            if round % 6 == 5 {
                // A power cut can leave half a line; the next start must cut it off and say so.
                previous += Array("{\"time\":\"2026-03-14T09:31:00.000Z\",\"lat\":35.68".utf8)
                try FileIO.write(sandbox.logPath(), previous)
                repairsForced += 1
            }
        }
        let final = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 60) { final.stderr.contains("ready:") })
        final.signal(SIGTERM)
        #expect(await final.wait(timeout: 60))
        #expect(final.exitStatus == 0)
        let (records, problems) = LogFileRecords.read(sandbox.logPath())
        torn += problems.count
        #expect(problems.isEmpty, "\(problems)")
        #expect(records.count > kills * 5)
        let repairs = sandbox.allStderr.occurrences(of: "<4>log: repaired \(sandbox.logPath()): dropped")
        #expect(repairs >= repairsForced)
        FaultReport.figure(
            "sigkill-fsync-always",
            "\(kept)/\(kills) kept, \(torn) torn (\(linesSeen) lines seen before the last kill, \(records.count) after; \(repairs) torn tails cut off at start, \(repairsForced) of them planted)")
    }

    @Test func sigtermExitsZeroWithinASecondWithLogsAndStateWritten() async throws {
        let sandbox = try DaemonSandbox("sigterm")
        let fake = try await GPSFake.start(log: Self.walk, options: .init(cycle: 0.004, once: true, gated: true))
        try sandbox.writeConfig(port: fake.port, fsync: "interval")
        let (daemon, reference) = try await Self.startWatched(fake, sandbox)
        #expect(await fake.waitForExit(timeout: 120))
        await Self.waitForWholeChain(sandbox)
        #expect(FileIO.exists(sandbox.socketPath), "the control socket is up while running")
        // The thread model (docs/ARCHITECTURE.md, "Threads"): the main thread
        // is the core thread, which also serves the ticks and the signals; no
        // thread of libdispatch or of the cooperative pool is ever started.
        let threads = try FileIO.list("/proc/\(daemon.pid)/task").map { task in
            String(decoding: try FileIO.read("/proc/\(daemon.pid)/task/\(task)/comm").filter { $0 != 10 }, as: UTF8.self)
        }
        #expect(threads.sorted() == ["control", "gpsd-reader", "locationd"])
        let asked = monotonicNow()
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        // docs/design.md §9: exit within a second of SIGTERM, measured from the signal
        // to the exit as the reaper thread saw it (the test's own polling and
        // scheduling are not part of it).
        let took = (daemon.exit?.time ?? .infinity) - asked
        #expect(took <= 1.0, "stopping took \(took) s")
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("stopped cleanly"))
        let records = sandbox.records()
        Self.expect(records, toBe: try Self.expectedChain(loggedFrom: records, gpsd: reference, daemon: daemon))
        let state = try StateCodec.decode(try FileIO.read(sandbox.statePath))
        #expect(state.client("logger")?.status == .always)
        // The state and the access report's counts (written whole at shutdown), and no temporary file.
        #expect(Set(try FileIO.list(sandbox.stateDirectory)) == ["state.json", "report.jsonl"], "no temporary file is left")
        #expect(!FileIO.exists(sandbox.socketPath), "the socket is closed and unlinked")
    }

    /// Twenty ways `state.json` goes bad, each made from `good` (a state file the daemon saved):
    /// a name and what to put at the path (bytes, or a directory, FIFO or foreign owner).
    static func corruptions(of good: [UInt8]) -> [(name: String, plant: (String) throws -> Void)] {
        func bytes(_ name: String, _ contents: [UInt8]) -> (name: String, plant: (String) throws -> Void) {
            (name, { try FileIO.write($0, contents) })
        }
        let text = String(decoding: good, as: UTF8.self)
        let n = good.count
        var nested = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        nested += [UInt8](repeating: UInt8(ascii: "]"), count: 100_000)
        return [
            bytes("empty", []),
            bytes("a quarter", Array(good.prefix(n / 4))),
            bytes("half", Array(good.prefix(n / 2))),
            bytes("three quarters", Array(good.prefix(3 * n / 4))),
            bytes("without its last brace", Array(good.prefix(n - 2))),
            bytes("binary garbage", (0..<777).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }),
            bytes("zeros of an unfinished write", [UInt8](repeating: 0, count: 512)),
            bytes("a NUL in the middle", Array(good.prefix(n / 2)) + [0] + Array(good.dropFirst(n / 2))),
            bytes("first brace flipped", [UInt8(ascii: "(")] + Array(good.dropFirst())),
            bytes("trailing garbage", Array(text.dropLast().utf8) + Array("}}garbage\n".utf8)),
            bytes("an array", Array("[]\n".utf8)),
            bytes("null", Array("null\n".utf8)),
            bytes("a string", Array("\"state\"\n".utf8)),
            bytes("a number", Array("42\n".utf8)),
            bytes("nested 100 000 deep", nested),
            bytes("booleans as words", Array(text.replacing("true", with: "\"yes\"").replacing("false", with: "\"no\"").utf8)),
            bytes("larger than 16 MiB", [UInt8](repeating: UInt8(ascii: " "), count: 17 << 20) + good),
            ("a directory", { #expect(mkdir($0, 0o755) == 0) }),
            ("a FIFO", { #expect(mkfifo($0, 0o600) == 0) }),
            ("someone else's file", { path in
                try FileIO.write(path, good)
                #expect(chown(path, 65534, 65534) == 0 || getuid() != 0)
            }),
        ]
    }

    /// Fault suite (scripts/faults): each corruption is set aside byte for byte, the daemon starts
    /// on the configuration's values and saves a good state file again.
    @Test func aCorruptStateFileIsSetAsideAndStartUpContinues() async throws {
        let sandbox = try DaemonSandbox("corrupt")
        try sandbox.writeConfig(port: try GPSFake.freePort(), clients: DaemonSandbox.logger(authorization: "while-using"))
        let first = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 60) { first.stderr.contains("ready:") }, "\(first.stderr)")
        first.signal(SIGTERM)
        #expect(await first.wait(timeout: 60))
        let good = try FileIO.read(sandbox.statePath)
        // A non-root run cannot give a file away: that case is left out there.
        let cases = Self.corruptions(of: good).filter { getuid() == 0 || $0.name != "someone else's file" }
        var survived = 0
        for (name, plant) in cases {
            let before = Set(try FileIO.list(sandbox.stateDirectory))
            FileIO.removeTree(sandbox.statePath)
            try plant(sandbox.statePath)
            var info = stat()
            #expect(lstat(sandbox.statePath, &info) == 0)
            let kind = info.st_mode & S_IFMT
            // A FIFO is never opened here: reading one would wait for a writer.
            let planted = kind == S_IFREG ? try FileIO.read(sandbox.statePath) : nil
            let daemon = try sandbox.startDaemon()
            guard await waitUntil(timeout: 60, { daemon.stderr.contains("ready:") }) else {
                Issue.record("\(name): the daemon did not start: \(daemon.stderr)")
                daemon.kill()
                continue
            }
            let told = daemon.stderr.contains("<4>state: state file \(sandbox.statePath) cannot be used (")
            #expect(told, "\(name): \(daemon.stderr)")
            let aside = Set(try FileIO.list(sandbox.stateDirectory)).subtracting(before).filter { $0.hasPrefix("state.json.corrupt-") }
            #expect(aside.count == 1, "\(name): set aside as \(aside)")
            let asidePath = aside.first.map { sandbox.stateDirectory + "/" + $0 } ?? sandbox.statePath
            var asideInfo = stat()
            let kept =
                lstat(asidePath, &asideInfo) == 0 && asideInfo.st_mode & S_IFMT == kind
                && (planted == nil || (try? FileIO.read(asidePath)) == planted)
            #expect(kept, "\(name): the bad file is kept as it was")
            daemon.signal(SIGTERM)
            #expect(await daemon.wait(timeout: 60))
            #expect(daemon.exitStatus == 0, "\(name): \(daemon.stderr)")
            let saved = (try? StateCodec.decode(try FileIO.read(sandbox.statePath)))?.client("logger")?.status
            #expect(saved == .whileUsing, "\(name): a good state file is saved again")
            if told && aside.count == 1 && kept && daemon.exitStatus == 0 && saved == .whileUsing { survived += 1 }
        }
        FaultReport.figure("corrupt-state", "\(survived)/\(cases.count) set aside, started and saved anew")
    }

    @Test func sighupReopensARenamedLogAndReloadsTheConfigKeepingItOnErrors() async throws {
        let sandbox = try DaemonSandbox("sighup")
        let track = try await sandbox.longTrack()
        let fake = try await GPSFake.start(log: track, options: .init(cycle: 0.002, once: true, gated: false))
        try sandbox.writeConfig(port: fake.port, clients: DaemonSandbox.logger(filter: "none"))
        let daemon = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 60) { sandbox.records().count >= 10 }, "\(daemon.stderr)")
        // logrotate: rename, then SIGHUP; the daemon also takes a new client.
        #expect(rename(sandbox.logPath(), sandbox.logPath() + ".1") == 0)
        let second = """
            [client.second]
            log = second.jsonl
            distance_filter = none
            authorization = always
            updating = on
            in_use = on
            """
        try sandbox.writeConfig(port: fake.port, clients: DaemonSandbox.logger(filter: "none") + "\n\n" + second)
        daemon.signal(SIGHUP)
        #expect(await waitUntil(timeout: 60) { sandbox.records().count >= 3 && sandbox.records("second").count >= 3 }, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("reloaded the configuration from \(sandbox.configPath)"))
        let rotated = sandbox.records(file: sandbox.logPath() + ".1")
        #expect(rotated.count >= 10)
        // A broken file is refused and the running configuration kept.
        try FileIO.write(sandbox.configPath, Array("[daemon]\nfsync = sometimes\n".utf8))
        daemon.signal(SIGHUP)
        #expect(await waitUntil(timeout: 60) { daemon.stderr.contains("kept the running configuration") }, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("\(sandbox.configPath):2"))
        #expect(daemon.stderr.contains("fsync"))
        let logged = sandbox.records("second").count
        #expect(await waitUntil(timeout: 60) { sandbox.records("second").count > logged + 3 }, "still logging with the old configuration")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0)
    }

    @Test func systemdHearsReadyStatusWatchdogAndStopping() async throws {
        let sandbox = try DaemonSandbox("notify")
        let listener = try DatagramListener(address: sandbox.file("notify.sock"))
        try sandbox.writeConfig(port: try GPSFake.freePort())
        let daemon = try sandbox.startDaemon(environment: ["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "2000000"])
        let ready = try #require(await listener.receive(timeout: 60), "no READY=1: \(daemon.stderr)")
        #expect(ready.hasPrefix("READY=1\nSTATUS="))
        #expect(ready.contains("waiting for gpsd 127.0.0.1:"))
        var heard: [String] = []
        let pinged = await waitUntil(timeout: 60) {
            heard += listener.receiveAllNow()
            return heard.contains("WATCHDOG=1")
        }
        #expect(pinged, "no WATCHDOG=1: \(heard)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        var rest: [String] = []
        await waitUntil(timeout: 60) {
            rest += listener.receiveAllNow()
            return rest.contains { $0.hasPrefix("STOPPING=1") }
        }
        #expect(rest.contains { $0.hasPrefix("STOPPING=1") }, "\(rest)")
    }
}

extension String {
    /// How many times `needle` occurs (not overlapping).
    func occurrences(of needle: String) -> Int {
        components(needle).count - 1
    }

    /// The pieces between occurrences of `separator` (one more than the occurrences).
    func components(_ separator: String) -> [Substring] {
        var pieces: [Substring] = []
        var rest = self[...]
        while let range = rest.firstRange(of: separator) {
            pieces.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        pieces.append(rest)
        return pieces
    }
}
