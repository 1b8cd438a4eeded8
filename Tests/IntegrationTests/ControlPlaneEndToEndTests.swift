import LocationClient
import LocationCore
import LocationProtocol
import LocationValues
import LocationTools
import LocationSystem
import LocationDaemon
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The control plane of the running daemon, end to end: who may change
/// state, what a flood of bad input and many watchers cost it, the socket
/// file, and `locationctl`'s reading commands on the daemon's real log.
@Suite(
    .timeLimit(.minutes(10)),
    .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
struct ControlPlaneEndToEndTests {
    /// A running daemon with gpsd feeding it a long generated walk.
    final class Running {
        let sandbox: DaemonSandbox
        let plane: ControlPlane
        let fake: GPSFake
        let daemon: ChildProcess

        init(_ label: String, socketGroup: String = "", authorization: String = "always", sentences: Int = 20_000) async throws {
            sandbox = try DaemonSandbox(label)
            plane = ControlPlane(sandbox: sandbox)
            let track = try await sandbox.longTrack(sentences: sentences)
            fake = try await GPSFake.start(log: track, options: .init(cycle: 0.003, once: true, gated: false))
            try plane.writeConfig(
                port: fake.port, socketGroup: socketGroup,
                clients: [ControlPlane.client("logger", authorization: authorization, filter: "5")])
            daemon = try sandbox.startDaemon()
            try #require(await waitUntil(timeout: 60) { FileIO.exists(sandbox.socketPath) }, "\(daemon.stderr)")
        }

        func stop() async {
            daemon.signal(SIGTERM)
            #expect(await daemon.wait(timeout: 60))
            #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
            fake.stop()
        }

        var auditPath: String { sandbox.logDirectory + "/audit.jsonl" }
        var audit: [UInt8] { (try? FileIO.read(auditPath)) ?? [] }
    }

    /// Every `locationctl` command that changes state (docs/protocol.md, access `change`).
    static let changingCommands: [[String]] = [
        ["services", "off"], ["authorize", "logger", "never"], ["accuracy", "logger", "reduced"], ["share", "logger"],
        ["reset", "logger"], ["answer", "logger", "deny"], ["request", "logger", "always"],
        ["request-full-accuracy", "logger", "survey"], ["session", "logger", "end"], ["start", "logger"], ["stop", "logger"],
        ["locate", "logger", "--timeout", "5"],
    ]

    /// The requests docs/protocol.md lists with access `change` (the first column's names).
    static func documentedChangingRequests() throws -> Set<String> {
        let text = String(decoding: try FileIO.read(PackagePaths.path("docs/protocol.md")), as: UTF8.self)
        var names: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let columns = line.split(separator: "|", omittingEmptySubsequences: false)
            guard columns.count > 3, columns[3].trimmingPrefix(" ").hasPrefix("change") else { continue }
            for (index, piece) in columns[1].split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                names.insert(String(piece))
            }
        }
        return names
    }

    @Test func theChangingCommandsAreEveryChangeRequestOfTheProtocol() throws {
        #expect(Set(Self.changingCommands.map { $0[0] }) == (try Self.documentedChangingRequests()))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to run locationctl as another user"))
    func anUnprivilegedLocationctlIsRefusedAndNeitherStateNorAuditChange() async throws {
        // adm exists on Debian, and nobody (65534) is not in it.
        let running = try await Running("nobody", socketGroup: "adm")
        let setpriv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        chmod(running.sandbox.path, 0o755)
        chmod(FileSystem.parent(of: running.sandbox.socketPath), 0o755)
        var info = stat()
        #expect(lstat(running.sandbox.socketPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o666)
        #expect(info.st_gid == (try SocketGroup.lookup("adm").get()).gid)
        // An administrator narrows the socket (socket_mode = 0660 does it at start).
        chmod(running.sandbox.socketPath, 0o660)

        let stateBefore = try await running.plane.status(of: "logger").authorization
        let auditBefore = running.audit

        // The socket's mode keeps nobody out altogether.
        let outside = try await running.plane.ctl(["authorize", "logger", "never"], prefix: setpriv)
        #expect(outside.status == 3)
        #expect(outside.stderr.contains("permission denied"))

        // Open again, as by default: nobody may read, not change.
        chmod(running.sandbox.socketPath, 0o666)
        let read = try await running.plane.ctl(["status", "logger"], prefix: setpriv)
        #expect(read.status == 0)
        let stateFileBefore = try FileIO.read(running.sandbox.statePath)
        // Fault suite (scripts/faults): every command that changes state, each refused.
        var refusedCount = 0
        for command in Self.changingCommands {
            let refused = try await running.plane.ctl(command, prefix: setpriv)
            let said = refused.stderr.contains("needs root or membership of the daemon's socket group")
            #expect(refused.status == 1 && said, "\(command): exit \(refused.status.map(String.init) ?? "none"): \(refused.stderr)")
            if refused.status == 1 && said { refusedCount += 1 }
        }
        let json = try await running.plane.ctl(["--json", "services", "off"], prefix: setpriv)
        #expect((try? JSONValue.parse(Array(json.stdout.utf8)))?["error"]?["code"] == "not-authorized")

        let unchanged = try await running.plane.status(of: "logger").authorization == stateBefore
        #expect(unchanged)
        #expect(try await running.plane.status().status.services)
        #expect(running.audit == auditBefore, "nothing refused is audited")
        #expect(try FileIO.read(running.sandbox.statePath) == stateFileBefore)
        FaultReport.figure(
            "unprivileged-commands",
            "\(refusedCount)/\(Self.changingCommands.count) state-changing commands from uid 65534 refused (exit 1, not-authorized); "
                + "state \(unchanged ? "unchanged" : "CHANGED"), audit log \(running.audit == auditBefore ? "unchanged" : "CHANGED")")

        // Root may; that change is audited with its uid.
        #expect(try await running.plane.ctl(["authorize", "logger", "never"]).status == 0)
        let lines = String(decoding: running.audit, as: UTF8.self).split(separator: "\n")
        let last = try #require(lines.last.flatMap { try? JSONValue.parse(Array($0.utf8)) })
        #expect(last["uid"] == 0 && last["cmd"] == "authorize" && last["args"]?["status"] == "never")
        await running.stop()
    }

    /// What one hostile peer's run gave: lines sent, error replies read, anything else.
    struct FloodResult: Sendable {
        var sent = 0
        var errors = 0
        var unexpected: [String] = []
    }

    /// One peer on a thread of its own: `lines` malformed or random request lines in
    /// batches of 250, each batch's replies read before the next goes out.
    static func flood(_ path: String, lines: Int, seed: UInt64) -> FloodResult {
        var result = FloodResult()
        var random = SplitMix64(state: seed)
        do {
            let peer = try ControlClient(path: path, timeout: 30)
            while result.sent < lines {
                let count = min(250, lines - result.sent)
                var batch: [UInt8] = []
                for j in 0..<count {
                    var line = (0..<Int(1 + random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    line.removeAll { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }
                    switch j % 5 {
                    case 0: line = Array(#"{"cmd":"authorize","client":"logger","status":"sometimes"}"#.utf8)
                    case 1: line = Array(#"{"cmd":"status","client":"logger","clinet":1}"#.utf8)
                    case 2: line = Array("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[".utf8)
                    default: break
                    }
                    batch += (line.isEmpty ? Array("x".utf8) : line) + [0x0A]
                }
                try peer.send(raw: batch, timeout: 60)
                result.sent += count
                for _ in 0..<count {
                    guard let line = try peer.readLine(timeout: 60) else {
                        result.unexpected.append("the daemon closed the connection after \(result.errors) replies")
                        return result
                    }
                    if (try? JSONValue.parse(line))?["ok"] == false {
                        result.errors += 1
                    } else {
                        result.unexpected.append(String(decoding: line.prefix(200), as: UTF8.self))
                    }
                }
            }
        } catch {
            result.unexpected.append("\(error)")
        }
        return result
    }

    /// Set once, read from other threads.
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    /// `status` round trips on a connection of their own, one every 20 ms until `done` is set.
    static func timeStatus(_ path: String, until done: Flag) -> (seconds: [Double], failures: Int) {
        var seconds: [Double] = []
        var failures = 0
        guard let client = try? ControlClient(path: path, timeout: 30) else { return ([], 1) }
        while !done.isSet {
            let start = monotonicNow()
            if let reply = (try? client.request(.status(client: nil), timeout: 30))?.reply, reply.isOK {
                seconds.append(monotonicNow() - start)
            } else {
                failures += 1
            }
            // The pace of the timed requests (on a thread of their own), not a wait for anything.
            usleep(20_000)
        }
        return (seconds, failures)
    }

    /// Fault suite (scripts/faults): `LOCATIOND_FAULTS_REQUESTS` (20 000) malformed or random
    /// request lines from 16 peers at once while 64 watchers are attached, half never reading,
    /// and `status` is timed on a connection of its own. Every line is answered with an error,
    /// the daemon never stops serving, its memory stays bounded. (docs/testing.md gives a 400 000 run.)
    @Test func hostileRequestsFromManyPeersAndSixtyFourWatchersLeaveTheDaemonServingInBoundedMemory() async throws {
        let requests = FaultReport.size("LOCATIOND_FAULTS_REQUESTS", default: 20_000)
        let peers = 16
        let running = try await Running("flood", sentences: 40_000)
        let pid = running.daemon.pid
        let path = running.sandbox.socketPath
        try #require(await waitUntil(timeout: 60) { running.sandbox.records().count > 10 }, "\(running.daemon.stderr)")
        let before = try #require(ProcFS.residentBytes(of: pid))

        // 64 watchers of the logger's locations; every other one never reads.
        var watchers: [ControlClient] = []
        for i in 0..<64 {
            let watcher = try ControlClient(path: path)
            try await watcher.sendAll(Array(ControlRequest(id: .number(Double(i)), .watch(client: nil)).line().utf8))
            watchers.append(watcher)
        }
        let done = Flag()
        let started = monotonicNow()
        async let timing = offPool { Self.timeStatus(path, until: done) }
        let results = await withTaskGroup(of: FloodResult.self) { group in
            for peer in 0..<peers {
                let share = requests / peers + (peer < requests % peers ? 1 : 0)
                group.addTask { await offPool { Self.flood(path, lines: share, seed: 0xF100D + UInt64(peer)) } }
            }
            return await group.reduce(into: [FloodResult]()) { $0.append($1) }
        }
        let took = monotonicNow() - started
        done.set()
        let (latencies, statusFailures) = await timing
        let answered = results.reduce(0) { $0 + $1.errors }
        let unexpected = results.flatMap(\.unexpected)
        #expect(answered == requests, "\(unexpected.prefix(5))")
        #expect(unexpected.isEmpty, "\(unexpected.prefix(5))")
        #expect(statusFailures == 0 && !latencies.isEmpty, "status failed \(statusFailures) times during the flood")
        #expect(!running.daemon.hasExited, "\(running.daemon.stderr)")

        // A line longer than the limit, then a good request on the same connection.
        let long = try ControlClient(path: path)
        try await long.sendAll([UInt8](repeating: UInt8(ascii: "{"), count: 300_000) + [0x0A] + Array(ControlRequest(id: 1, .hello).line().utf8))
        #expect(try await long.nextLine().flatMap { try? JSONValue.parse($0) }?["error"]?["code"] == "too-long")
        #expect(try await long.nextLine().flatMap { try? JSONValue.parse($0) }?["ok"] == true)

        // The reading watchers keep getting locations while gpsd feeds.
        for watcher in watchers.enumerated() where watcher.offset % 2 == 0 { _ = try watcher.element.availableLines() }
        let logged = running.sandbox.records().count
        try #require(await waitUntil(timeout: 60) { running.sandbox.records().count > logged + 10 }, "the log kept growing")
        var sawLocation = 0
        for watcher in watchers.enumerated() where watcher.offset % 2 == 0 {
            let lines = try watcher.element.availableLines()
            if lines.contains(where: { (try? JSONValue.parse($0))?["event"] == "location" }) { sawLocation += 1 }
        }
        #expect(sawLocation == 32, "every reading watcher got locations")

        let after = try #require(ProcFS.residentBytes(of: pid))
        #expect(after - before < 48 << 20, "the daemon's RSS grew by \((after - before) >> 20) MiB")
        let status = try await running.plane.ctl(["status", "logger"])
        #expect(status.status == 0, "the daemon still answers: \(status.stderr)")
        watchers.removeAll()
        let crashed = running.daemon.hasExited
        await running.stop()
        FaultReport.figure(
            "hostile-requests",
            "\(requests) lines from \(peers) peers at once in \(Int(took.rounded())) s, 64 watchers: \(answered) answered with an error, "
                + "\(crashed ? 1 : 0) crashes; status during the flood: \(latencies.count) timed, "
                + "median \(FaultReport.milliseconds(FaultReport.quantile(latencies, 0.5))), "
                + "p99 \(FaultReport.milliseconds(FaultReport.quantile(latencies, 0.99))), "
                + "max \(FaultReport.milliseconds(latencies.max() ?? 0)); RSS +\((after - before) >> 20) MiB")
    }

    @Test func aStaleSocketIsReplacedALiveDaemonIsRefusedAndStopRemovesTheSocket() async throws {
        let sandbox = try DaemonSandbox("socket")
        let plane = ControlPlane(sandbox: sandbox)
        let fake = try await GPSFake.start(log: PackagePaths.fixture("walk.nmea"), options: .init(cycle: 0.01, once: false, gated: false))
        defer { fake.stop() }
        try plane.writeConfig(port: fake.port, clients: [ControlPlane.client("logger")])
        // A socket file whose daemon is gone (bound, never listened, the process "crashed").
        try FileSystem.makeDirectories(FileSystem.parent(of: sandbox.socketPath), mode: 0o755)
        let stale = try UnixSocketAddress.makeSocket(nonBlocking: false)
        let address = try #require(UnixSocketAddress(path: sandbox.socketPath))
        #expect(address.withSockaddr { bind(stale, $0, $1) } == 0)
        close(stale)

        let first = try sandbox.startDaemon()
        try #require(await waitUntilAsync(timeout: 60) { (try? await plane.ctl(["status"]).status) == 0 }, "\(first.stderr)")
        #expect(first.stderr.contains("a control socket left by a locationd that is no longer running"))

        let second = try sandbox.startDaemon()
        #expect(await second.wait(timeout: 60))
        #expect(second.exitStatus != 0)
        #expect(second.stderr.contains("another locationd is running on \(sandbox.socketPath)"))
        #expect(try await plane.ctl(["status"]).status == 0, "the first one is untouched")

        first.signal(SIGTERM)
        #expect(await first.wait(timeout: 60))
        #expect(first.exitStatus == 0)
        #expect(!FileIO.exists(sandbox.socketPath))
    }

    /// #48 items 1 and 6: a reduced client's `locate` within its `reduced_interval` is answered
    /// at once with the interval's reduced position, which its log holds once, not once a locate.
    @Test func aReducedLocateWithinTheIntervalGetsThePositionAgainLoggedOnce() async throws {
        let running = try await Running("reduced-locate")
        let plane = running.plane
        try #require(await waitUntil(timeout: 60) { running.sandbox.records().count >= 5 }, "\(running.daemon.stderr)")
        #expect(try await plane.ctl(["accuracy", "logger", "reduced"]).status == 0)
        try #require(await waitUntil(timeout: 60) { running.sandbox.records().contains { $0.accuracy == .reduced } })
        let logged = try #require(running.sandbox.records().first { $0.accuracy == .reduced })
        for _ in 0..<2 {
            let located = try await plane.ctl(["--json", "locate", "logger", "--timeout", "10"])
            #expect(located.status == 0, "\(located.stderr)")
            let location = try JSONValue.parse(Array(located.stdout.utf8))
            #expect(location["accuracy"] == "reduced")
            #expect(abs((location["lat"]?.numberValue ?? 0) - logged.latitude) < 1e-6, "\(located.stdout)")
            #expect(abs((location["lon"]?.numberValue ?? 0) - logged.longitude) < 1e-6, "\(located.stdout)")
        }
        await running.stop()
        #expect(running.sandbox.records().filter { $0.accuracy == .reduced }.count == 1)
    }

    @Test func watchLocateTailAndExportWorkOnTheRunningDaemonsLog() async throws {
        let running = try await Running("reading")
        let plane = running.plane
        try #require(await waitUntil(timeout: 60) { running.sandbox.records().count >= 20 }, "\(running.daemon.stderr)")

        // watch: the current state, then locations as they are logged.
        let out = running.sandbox.file("watch.out")
        let watch = try ChildProcess(
            [PackagePaths.product("locationctl"), "--socket", running.sandbox.socketPath, "watch", "logger"], stdoutPath: out, stderrPath: out + ".err")
        #expect(await waitUntil(timeout: 60) { watch.stdout.occurrences(of: " logger location ") >= 3 })
        #expect(watch.stdout.hasPrefix("watching logger (Ctrl-C to stop)\n"))
        watch.signal(SIGINT)
        #expect(await watch.wait(timeout: 60))
        #expect(watch.terminatingSignal == SIGINT)

        // locate: one location, printed.
        let located = try await plane.ctl(["--json", "locate", "logger", "--timeout", "10"])
        #expect(located.status == 0, "\(located.stderr)")
        let location = try JSONValue.parse(Array(located.stdout.utf8))
        #expect(location["event"] == "location" && location["client"] == "logger")
        // As text, the one line format of `watch`: the time it came, the fix's own time labelled.
        let text = try await plane.ctl(["locate", "logger", "--timeout", "10"])
        #expect(text.status == 0 && text.stdout.contains(" logger location ") && text.stdout.contains(" (fix time "), "\(text.stdout)")

        // tail: the log's path comes from the daemon.
        let tail = try await plane.ctl(["--json", "tail", "logger", "-n", "5"])
        #expect(tail.status == 0)
        let tailed = tail.stdout.split(separator: "\n").map { try? LogRecord.parse(String($0)) }
        #expect(tailed.count == 5 && tailed.allSatisfy { $0 != nil })

        try #require(await waitUntil(timeout: 60) { running.sandbox.records().count >= 50 }, "\(running.daemon.stderr)")
        await running.stop()

        // export: the daemon's real log, read back by gpsbabel point for point.
        let records = running.sandbox.records()
        try #require(records.count >= 50)
        for format in ExportFormat.allCases {
            let file = running.sandbox.file("walk.\(format.fileExtension)")
            let export = try await plane.ctl(["export", running.sandbox.logPath(), "-o", file])
            #expect(export.status == 0, "\(format): \(export.stderr)")
            if FileIO.exists("/usr/bin/gpsbabel") {
                let back = running.sandbox.file("back-\(format.rawValue).csv")
                let kind = format == .gpx || format == .kml ? "-t" : "-w"
                let reader = format == .csv ? "unicsv" : format.rawValue
                let babel = try await ChildProcess.run(
                    ["/usr/bin/gpsbabel", kind, "-i", reader, "-f", file, "-o", "unicsv,utc=0", "-F", back])
                #expect(babel.status == 0, "\(format): \(babel.stderr)")
                // gpsbabel ends unicsv lines with CRLF, one Character in Swift: split on any newline.
                let rows = String(decoding: (try? FileIO.read(back)) ?? [], as: UTF8.self).split(whereSeparator: \.isNewline).count - 1
                #expect(rows == records.count, "\(format): gpsbabel read \(rows) points of \(records.count)")
            }
        }
    }
}
