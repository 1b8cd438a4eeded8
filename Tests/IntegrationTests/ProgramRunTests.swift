import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Programs through the gate: gpsd's own clients (gpspipe, gpxlogger, a
/// python `gps` session) and an NMEA reader connected to a running
/// locationd fed by gpsfake get a client's fixes exactly as its permission
/// allows, and their coming and going is the client's app state.
@Suite(
    .timeLimit(.minutes(10)),
    .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"),
    .enabled(if: ExternalTool.isAvailable("gpspipe", "gpxlogger", "gpsdecode"), "needs gpspipe, gpxlogger, gpsdecode (gpsd-clients)"))
struct ProgramRunTests {
    struct Setup {
        let sandbox: DaemonSandbox
        let plane: ControlPlane
        let fake: GPSFake
        let daemon: ChildProcess
        let port: Int
        var gpsdSocket: String { sandbox.file("run/qgis.gpsd.sock") }
        var nmeaSocket: String { sandbox.file("run/qgis.nmea") }

        func ctl(_ arguments: [String]) async throws -> Int32? { try await plane.ctl(arguments).status }

        func stop() async {
            daemon.signal(SIGTERM)
            _ = await daemon.wait(timeout: 60)
            fake.stop()
        }
    }

    func start(_ label: String, keys: [String]) async throws -> Setup {
        let sandbox = try DaemonSandbox(label)
        let plane = ControlPlane(sandbox: sandbox)
        let track = try await sandbox.longTrack(sentences: 12_000)
        let fake = try await GPSFake.start(log: track, options: .init(cycle: 0.01, once: true, gated: true))
        let port = try LoopbackTCP.freePort()
        let client = (["[client.qgis]", "log = qgis.jsonl", "distance_filter = none", "desired_accuracy = kilometer",
            "usage = QGIS shows where you are", "gpsd_socket = \(sandbox.file("run/qgis.gpsd.sock"))",
            "gpsd_port = \(port)", "nmea_socket = \(sandbox.file("run/qgis.nmea"))"] + keys).joined(separator: "\n") + "\n"
        try plane.writeConfig(port: fake.port, clients: [client])
        let daemon = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("gpsd: connected to") }, "\(daemon.stderr)")
        fake.release()
        return Setup(sandbox: sandbox, plane: plane, fake: fake, daemon: daemon, port: port)
    }

    /// The client's log by fix time.
    func logByTime(_ setup: Setup) -> [String: LogRecord] {
        var byTime: [String: LogRecord] = [:]
        for record in setup.sandbox.records("qgis") { byTime[UTCTime.format(record.time)] = record }
        return byTime
    }

    func pythonSession(_ setup: Setup, _ arguments: [String], name: String) throws -> ChildProcess {
        try ChildProcess(
            ["/usr/bin/python3", "-c", pythonGPSSession] + arguments, stdoutPath: setup.sandbox.file("\(name).out"),
            stderrPath: setup.sandbox.file("\(name).err"))
    }

    func tpvs(_ text: String) -> [JSONValue] { jsonObjects(text).filter { $0["class"]?.stringValue == "TPV" } }

    @Test func gpsdClientsGetTheLogsFixesWhileAuthorizedNothingAfterNeverAndTheirComingAndGoingIsTheClientInUse() async throws {
        let setup = try await start("programs", keys: ["authorization = always", "updating = off", "in_use = off"])
        // Nobody connected: the client is not in use and not updating, so nothing is logged.
        let idle = try await setup.plane.status(of: "qgis")
        #expect(!idle.inUse && !idle.updating)

        // gpspipe -w on gpsd_port: VERSION, DEVICES, WATCH, then TPVs that are the log's fixes.
        let pipe = try await ChildProcess.run(["gpspipe", "-w", "-n", "15", "127.0.0.1:\(setup.port)"], timeout: 90)
        #expect(pipe.status == 0, "\(pipe.stderr)")
        let objects = jsonObjects(pipe.output)
        #expect(objects.prefix(3).compactMap { $0["class"]?.stringValue } == ["VERSION", "DEVICES", "WATCH"])
        #expect(objects.first?["proto_major"]?.intValue == 3)
        // #39: the release is the installed gpsd's, which its clients (built with it) expect.
        let gpspipe = try await ChildProcess.run(["gpspipe", "-V"])
        let release = try #require(objects.first?["release"]?.stringValue)
        #expect(gpspipe.stderr.hasPrefix("gpspipe: \(release) ") && objects.first?["rev"]?.stringValue == release, "\(gpspipe.stderr)")
        let piped = tpvs(pipe.output)
        // The receiver is announced with a DEVICE notice before its first TPV, as gpsd announces one it adds.
        #expect(piped.count == 11)
        let notice = objects.dropFirst(3).first
        #expect(notice?["class"]?.stringValue == "DEVICE", "\(pipe.output)")
        var log = logByTime(setup)
        for tpv in piped {
            let time = try #require(tpv["time"]?.stringValue)
            let record = try #require(log[time], "TPV at \(time) is not in the client's log")
            #expect(tpv["lat"]?.numberValue == FixedDecimal.format(record.latitude, decimals: 7).flatMap(Double.init))
            #expect(tpv["lon"]?.numberValue == FixedDecimal.format(record.longitude, decimals: 7).flatMap(Double.init))
            #expect(tpv["mode"]?.intValue == record.mode.rawValue)
            // The receiver's path as gpsd names it (gpsfake's pty), as the log's `device`.
            #expect(tpv["device"]?.stringValue == record.device && record.device?.hasPrefix("/dev/") == true)
            #expect(notice?["path"]?.stringValue == record.device)
        }

        // A python gps session on the Unix socket, listed by status while it watches.
        let python = try pythonSession(setup, ["unix", setup.gpsdSocket, "100000", "120"], name: "python-unix")
        defer { python.kill() }
        try #require(await waitUntil(timeout: 60) { tpvs(python.stdout).count >= 3 }, "\(python.stderr)")
        let report = try await setup.plane.status()
        let program = try #require(report.programs.first, "status lists the python session")
        #expect(program.client == "qgis" && program.via == "gpsd_socket" && program.watching)
        #expect(program.pid == python.pid)
        #expect(program.name == "python3")
        #expect(program.uid == getuid())
        let inUse = try #require(report.status.clients.first)
        #expect(inUse.inUse && inUse.updating)
        let text = try await setup.plane.ctl(["status", "qgis"]).stdout
        #expect(text.contains("program: python3 (pid \(python.pid), uid \(getuid())) on gpsd_socket, watching"))

        // gpxlogger on gpsd_port writes a GPX of the same fixes.
        let gpx = setup.sandbox.file("track.gpx")
        let logger = try ChildProcess(
            ["gpxlogger", "-e", "sockets", "-f", gpx, "127.0.0.1:\(setup.port)"], stdoutPath: setup.sandbox.file("gpxlogger.out"))
        try #require(await waitUntil(timeout: 60) { pieces(FileIO.text(gpx) ?? "", after: "<trkpt").count > 6 })
        // On loopback TCP the program is found through the kernel's TCP table and its descriptors.
        let overTCP = try #require(try await setup.plane.status().programs.first { $0.via == "gpsd_port" })
        #expect(overTCP.pid == logger.pid && overTCP.name == "gpxlogger" && overTCP.uid == getuid() && overTCP.watching)
        logger.signal(SIGINT)
        #expect(await logger.wait(timeout: 30))
        log = logByTime(setup)
        let points = pieces(FileIO.text(gpx) ?? "", after: "<trkpt")
        #expect(points.count >= 5)
        for point in points {
            let lat = try #require(attribute("lat", in: point).flatMap(Double.init))
            let time = try #require(element("time", in: point))
            // gpxlogger writes whole seconds or milliseconds; the walk's fixes are on whole seconds.
            let record = try #require(log[time] ?? log[String(time.dropLast()) + ".000Z"], "GPX point at \(time)")
            #expect(abs(lat - record.latitude) < 1e-6)
        }

        // authorize never: the watching session gets nothing more; a new gpspipe is told why and how to change it.
        #expect(try await setup.ctl(["authorize", "qgis", "never"]) == 0)
        // Once a fix has come after the change, what was on its way is out; then three more come
        // and the session gets at most one of them.
        let atChange = try await setup.plane.sourceFixes()
        #expect(await setup.plane.fixesCame(1, after: atChange))
        let before = tpvs(python.stdout).count
        #expect(await setup.plane.fixesCame(3, after: try await setup.plane.sourceFixes()))
        #expect(tpvs(python.stdout).count <= before + 1)
        let refused = try await ChildProcess.run(["timeout", "3", "gpspipe", "-w", "127.0.0.1:\(setup.port)"], timeout: 60)
        #expect(tpvs(refused.output).isEmpty)
        let errors = jsonObjects(refused.output).filter { $0["class"]?.stringValue == "ERROR" }
        let message = try #require(errors.first?["message"]?.stringValue, "\(refused.output)")
        #expect(message.contains("never"))
        #expect(message.contains("locationctl authorize qgis"))

        // The last program gone: out of use and stopped.
        python.signal(SIGTERM)
        #expect(await python.wait(timeout: 30))
        #expect(try await waitUntilAsync(timeout: 30) {
            let client = try await setup.plane.status(of: "qgis")
            return !client.inUse && !client.updating
        })
        #expect(try await setup.plane.status().programs.isEmpty)
        await setup.stop()
        #expect(setup.daemon.exitStatus == 0)
        let audit = FileIO.text(setup.sandbox.logDirectory + "/audit.jsonl") ?? ""
        let commands = audit.split(separator: "\n").compactMap { try? JSONValue.parse(String($0))["cmd"]?.stringValue }
        #expect(commands.first == "session" && commands.contains("start") && commands.contains("stop"))
    }

    @Test func reducedAccuracyReachesProgramsObfuscatedAndTheNMEASocketDecodesToTheLog() async throws {
        let setup = try await start(
            "programs-reduced", keys: ["authorization = always", "updating = on", "in_use = on", "reduced_interval = 0"])
        // NMEA: what a reader gets, decoded by gpsdecode, is the client's log.
        let nmea = setup.sandbox.file("socket.nmea")
        let reader = try ChildProcess(
            ["/usr/bin/python3", "-c", pythonSocketReader, setup.nmeaSocket, nmea, "4"], stdoutPath: setup.sandbox.file("reader.out"))
        #expect(await reader.wait(timeout: 60))
        let decoded = try await ChildProcess.run(["gpsdecode"], stdin: .file(nmea), timeout: 60)
        #expect(decoded.status == 0)
        let log = logByTime(setup)
        var matched = 0
        for tpv in tpvs(decoded.output) {
            guard let lat = tpv["lat"]?.numberValue, let lon = tpv["lon"]?.numberValue, let time = tpv["time"]?.stringValue else { continue }
            let record = try #require(log[time], "decoded fix at \(time) is not in the log")
            #expect(abs(lat - record.latitude) < 1e-7 && abs(lon - record.longitude) < 1e-7)
            if let alt = tpv["altMSL"]?.numberValue, let logged = record.altitude { #expect(abs(alt - logged) < 1e-3) }
            matched += 1
        }
        #expect(matched >= 10, "\(decoded.output.prefix(2000))")
        // And nothing of the log is missing from the stream while the reader was connected.
        let decodedTimes = Set(tpvs(decoded.output).compactMap { $0["time"]?.stringValue })
        if let first = decodedTimes.min(), let last = decodedTimes.max() {
            let span = log.keys.filter { $0 >= first && $0 <= last }
            #expect(span.allSatisfy(decodedTimes.contains), "log fixes missing from the NMEA stream")
        }

        // Full accuracy: altitude, speed, track. Reduced: only the obfuscated position, eph at least the grid.
        let full = try pythonSession(setup, ["tcp", String(setup.port), "5", "60"], name: "python-full")
        #expect(await full.wait(timeout: 90))
        let fullFixes = tpvs(full.stdout)
        #expect(fullFixes.count == 5, "\(full.stderr)")
        #expect(fullFixes.allSatisfy { $0["altMSL"]?.numberValue?.isFinite == true && $0["speed"]?.numberValue?.isFinite == true })
        #expect(try await setup.ctl(["accuracy", "qgis", "reduced"]) == 0)
        let reduced = try pythonSession(setup, ["tcp", String(setup.port), "5", "60"], name: "python-reduced")
        #expect(await reduced.wait(timeout: 90))
        let reducedFixes = tpvs(reduced.stdout)
        #expect(reducedFixes.count == 5, "\(reduced.stderr)")
        let after = logByTime(setup)
        for tpv in reducedFixes {
            #expect(tpv["altMSL"] == .null && tpv["speed"] == .null && tpv["track"] == .null)
            #expect((tpv["eph"]?.numberValue ?? 0) >= 2000)
            let time = try #require(tpv["time"]?.stringValue)
            let record = try #require(after[time])
            #expect(record.accuracy == .reduced)
            #expect(abs((tpv["lat"]?.numberValue ?? 0) - record.latitude) < 1e-7)
        }
        // Snapped to a 2 km grid: a few minutes of walking stay on one or two cells.
        let cells = Set(reducedFixes.map { "\($0["lat"]?.numberValue ?? 0),\($0["lon"]?.numberValue ?? 0)" })
        #expect(cells.count <= 2)
        await setup.stop()
    }

    @Test(
        .enabled(if: getuid() == 0, "needs root, to run a program as nobody"),
        .enabled(if: ExternalTool.isAvailable("setpriv"), "needs setpriv (util-linux)"))
    func aProgramOfAUserNotAllowedIsRefusedCountedAndAudited() async throws {
        let adm = try #require(getgrnam("adm"), "Debian has an adm group").pointee.gr_gid
        let setup = try await start(
            "programs-refused", keys: ["authorization = always", "allow_users = root", "socket_mode = 0660", "socket_group = adm"])
        // The daemon gave both Unix sockets socket_mode and socket_group.
        for socket in [setup.gpsdSocket, setup.nmeaSocket] {
            var info = stat()
            try #require(lstat(socket, &info) == 0, "\(socket)")
            #expect(info.st_mode & 0o7777 == 0o660 && info.st_gid == adm, "\(socket)")
        }
        // So nobody cannot even connect there (the directories opened, so only the socket's mode is in the way).
        chmod(setup.sandbox.path, 0o755)
        chmod(setup.sandbox.file("run"), 0o755)
        let kept = try await ChildProcess.run(
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
             "import socket,sys\ntry:\n socket.socket(socket.AF_UNIX).connect(sys.argv[1]); print('connected')\n"
                + "except PermissionError: print('EACCES')", setup.gpsdSocket], timeout: 60)
        #expect(kept.output == "EACCES\n", "\(kept.output) \(kept.stderr)")
        // nobody (uid 65534) on gpsd_port: who it is comes from the kernel's TCP table.
        let refused = try await ChildProcess.run(
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/timeout", "5",
             "gpspipe", "-w", "127.0.0.1:\(setup.port)"], timeout: 60)
        #expect(tpvs(refused.output).isEmpty)
        let message = jsonObjects(refused.output).first { $0["class"]?.stringValue == "ERROR" }?["message"]?.stringValue
        #expect(message?.contains("uid 65534 is not in allow_users or allow_groups of [client.qgis]") == true, "\(refused.output)")
        // root is let in.
        // VERSION, DEVICES, WATCH, the receiver's DEVICE notice (the first program to watch), two TPVs.
        let allowed = try await ChildProcess.run(["gpspipe", "-w", "-n", "6", "127.0.0.1:\(setup.port)"], timeout: 90)
        #expect(tpvs(allowed.output).count == 2, "\(allowed.output)")
        let report = try await setup.plane.status()
        // The kernel's EACCES never reached the daemon: only the allow-list refusal is counted.
        #expect(report.programCounts["qgis"] == ProgramCounts(refused: 1, cutOff: 0))
        #expect(try await setup.plane.ctl(["status", "qgis"]).stdout.contains("programs: refused 1"))
        await setup.stop()
        let audit = (FileIO.text(setup.sandbox.logDirectory + "/audit.jsonl") ?? "").split(separator: "\n")
        let connect = try #require(audit.compactMap { try? JSONValue.parse(String($0)) }.first { $0["cmd"] == "connect" })
        #expect(connect["uid"]?.intValue == 65534 && connect["client"] == "qgis" && connect["args"]?["via"] == "gpsd_port")
    }

    @Test func allowOnceGraceStartsWhenTheLastProgramDisconnects() async throws {
        let setup = try await start("programs-once", keys: ["authorization = ask", "updating = off", "in_use = off", "once_grace = 1"])
        let python = try pythonSession(setup, ["unix", setup.gpsdSocket, "100000", "120"], name: "python-once")
        defer { python.kill() }
        // Not authorized yet: told why and what would change it, and nothing delivered.
        try #require(await waitUntil(timeout: 60) {
            jsonObjects(python.stdout).contains { $0["class"]?.stringValue == "ERROR" }
        }, "\(python.stderr)")
        let error = jsonObjects(python.stdout).first { $0["class"]?.stringValue == "ERROR" }
        #expect(error?["message"]?.stringValue?.contains("locationctl") == true)
        #expect(tpvs(python.stdout).isEmpty)
        #expect(try await setup.ctl(["request", "qgis", "while-using"]) == 0)
        #expect(try await setup.ctl(["answer", "qgis", "allow-once"]) == 0)
        #expect(await waitUntil(timeout: 60) { tpvs(python.stdout).count >= 3 })
        let granted = try await setup.plane.status(of: "qgis")
        #expect(granted.authorization.status == .whileUsing && granted.authorization.once && granted.inUse)
        python.signal(SIGTERM)
        #expect(await python.wait(timeout: 30))
        // Out of use now; a second later Allow Once has ended.
        #expect(try await waitUntilAsync(timeout: 30) { try await setup.plane.status(of: "qgis").authorization.status == .ask })
        await setup.stop()
    }
}

/// The pieces of `text` after each `marker`, each up to the next one.
private func pieces(_ text: String, after marker: String) -> [String] {
    let bytes = Array(text.utf8)
    let needle = Array(marker.utf8)
    var starts: [Int] = []
    var i = 0
    while i + needle.count <= bytes.count {
        if bytes[i..<(i + needle.count)].elementsEqual(needle) {
            starts.append(i + needle.count)
            i += needle.count
        } else {
            i += 1
        }
    }
    return starts.enumerated().map { index, start in
        let end = index + 1 < starts.count ? starts[index + 1] - needle.count : bytes.count
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// `name="value"` in a piece of XML.
private func attribute(_ name: String, in text: String) -> String? {
    guard let rest = pieces(text, after: "\(name)=\"").first else { return nil }
    return rest.split(separator: "\"", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
}

/// The text of the first `<name>…</name>` in a piece of XML.
private func element(_ name: String, in text: String) -> String? {
    guard let rest = pieces(text, after: "<\(name)>").first else { return nil }
    return rest.split(separator: "<", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
}
