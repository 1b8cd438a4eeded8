import LocationCodecs
import LocationCore
import LocationProtocol
import LocationValues
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A private directory for one daemon: its configuration, socket, state and
/// logs, removed with everything in it when the sandbox goes away.
final class DaemonSandbox {
    let directory: ScratchDirectory
    var path: String { directory.path }

    init(_ label: String) throws {
        directory = try ScratchDirectory("it-\(label)")
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    var configPath: String { file("locationd.conf") }
    var socketPath: String { file("run/control.sock") }
    var stateDirectory: String { file("state") }
    var statePath: String { file("state/state.json") }
    var logDirectory: String { file("log") }
    private var starts = 0
    /// Every started daemon's stderr, in start order.
    private(set) var stderrPaths: [String] = []
    func logPath(_ client: String = "logger") -> String { "\(logDirectory)/\(client).jsonl" }

    /// A logger that may log from the start; `filter` is its distance filter.
    static func logger(filter: String = "5", accuracy: String = "kilometer", authorization: String = "always") -> String {
        """
        [client.logger]
        log = logger.jsonl
        distance_filter = \(filter)
        desired_accuracy = \(accuracy)
        authorization = \(authorization)
        updating = on
        in_use = on
        usage = Logs coordinates for field tests
        """
    }

    /// Writes the configuration: gpsd at 127.0.0.1:`port`, everything else in the sandbox.
    func writeConfig(port: Int, fsync: String = "always", clients: String = DaemonSandbox.logger()) throws {
        let text = """
            # written by the integration tests
            [daemon]
            socket = \(socketPath)
            socket_group =
            state_dir = \(stateDirectory)
            log_dir = \(logDirectory)
            fsync = \(fsync)

            [source]
            type = gpsd
            host = 127.0.0.1
            port = \(port)

            \(clients)
            """
        try FileIO.write(configPath, text)
    }

    /// Writes the configuration: `[source] type = nmea` on `device`, everything else in the sandbox.
    func writeNMEAConfig(device: String, clients: String = DaemonSandbox.logger()) throws {
        let text = """
            [daemon]
            socket = \(socketPath)
            socket_group =
            state_dir = \(stateDirectory)
            log_dir = \(logDirectory)

            [source]
            type = nmea
            device = \(device)

            \(clients)
            """
        try FileIO.write(configPath, text)
    }

    /// Starts `locationd run` on this sandbox's configuration (through `prefix`,
    /// e.g. a shell setting a limit, when given); its output goes
    /// to files of its own. Its environment is `environment` alone (with PATH,
    /// HOME and TMPDIR): nothing of the test runner's, such as a NOTIFY_SOCKET.
    func startDaemon(environment: [String: String] = [:], prefix: [String] = []) throws -> ChildProcess {
        starts += 1
        let stderrPath = file("locationd-\(starts).stderr")
        stderrPaths.append(stderrPath)
        return try ChildProcess(
            prefix + [PackagePaths.product("locationd"), "run", "--config", configPath], environment: .only(environment),
            stdoutPath: file("locationd-\(starts).stdout"), stderrPath: stderrPath)
    }

    /// Lets peers of every uid reach the control socket (a running daemon's): mkdtemp made the
    /// sandbox 0700, and the socket's own mode is what an administrator opens.
    func openSocketToEveryone() {
        chmod(path, 0o755)
        chmod(file("run"), 0o755)
        chmod(socketPath, 0o666)
    }

    /// The stderr of every daemon started so far, one after the other.
    var allStderr: String {
        stderrPaths.map { FileIO.text($0) ?? "" }.joined()
    }

    /// Runs `locationd ARGS` to its end; its status, stdout and stderr.
    func runLocationd(_ arguments: [String]) async throws -> (status: Int32?, stdout: String, stderr: String) {
        let outcome = try await ChildProcess.run([PackagePaths.product("locationd")] + arguments, environment: .only([:]))
        return (outcome.status, outcome.output, outcome.stderr)
    }

    /// A generated walk of at least `sentences` NMEA sentences with ever later times
    /// (`scripts/nmea-fixtures --bench`), for runs that must not repeat a fix time
    /// (a looping gpsfake would, and the engine delivers only newer fixes).
    func longTrack(sentences: Int = 30_000) async throws -> String {
        let path = file("long.nmea")
        let outcome = try await ChildProcess.run(
            ["/usr/bin/python3", PackagePaths.path("scripts/nmea-fixtures"), "--bench", String(sentences), path])
        guard outcome.status == 0 else {
            throw ChildProcessError("scripts/nmea-fixtures --bench failed: \(outcome.stderr)")
        }
        return path
    }

    /// The log's bytes (empty if it does not exist yet).
    func logBytes(_ client: String = "logger") -> [UInt8] {
        (try? FileIO.read(logPath(client))) ?? []
    }

    /// The records of a client's log; every line must be a whole record.
    func records(_ client: String = "logger", file: String? = nil) -> [LogRecord] {
        parseLog((try? FileIO.read(file ?? logPath(client))) ?? [], name: file ?? logPath(client))
    }
}

/// `bytes` up to and including their last newline: the whole lines of a log a daemon may be
/// writing (a read is not held off a regular file's write, so it can end inside a batch).
func wholeLines(_ bytes: [UInt8]) -> [UInt8] {
    Array(bytes[..<(bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)])
}

/// Every record of a log's bytes; a line that is not a record is an issue.
func parseLog(_ bytes: [UInt8], name: String) -> [LogRecord] {
    let (records, problems) = LogFileRecords.parse(bytes, name: name)
    for problem in problems { Issue.record(Comment(rawValue: problem)) }
    return records
}

/// The fixes of an NMEA file, as the project's parser reads them.
func nmeaFixes(_ path: String) throws -> [Fix] {
    let bytes = try FileIO.read(path)
    var parser = NMEAParser()
    var fixes: [Fix] = []
    bytes.withUnsafeBytes { parser.feed($0) { fixes.append($0) } }
    parser.finish { fixes.append($0) }
    return fixes
}

/// docs/authorization.md §4 for one always-authorized, updating, in-use, full-accuracy
/// client, written out plainly and independently of the engine: the usable
/// fixes (newer than the last delivered, within `accuracy` metres), the
/// first delivered whatever its distance, each next one when it is at least
/// `filter` metres (WGS-84 geodesic) from the last delivered.
func distanceFilterChain(_ fixes: [Fix], filter: Double, accuracy: Double = 1000) -> [Fix] {
    var chain: [Fix] = []
    for fix in fixes where fix.isUsable {
        if let h = fix.horizontalError, h > accuracy { continue }
        guard let last = chain.last else {
            chain.append(fix)
            continue
        }
        guard let time = fix.time, let lastTime = last.time, time > lastTime else { continue }
        let metres = Geodesy.distance(
            fromLatitude: last.latitude, longitude: last.longitude, toLatitude: fix.latitude, longitude: fix.longitude)
        if metres >= filter { chain.append(fix) }
    }
    return chain
}
