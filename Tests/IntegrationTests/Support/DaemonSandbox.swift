import Foundation
import LocationCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where things are in the package: the root is four levels above this file
/// (Tests/IntegrationTests/Support/DaemonSandbox.swift).
enum Package {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The debug `locationd` that `swift build --build-tests` builds.
    static var locationd: String { "\(root)/.build/debug/locationd" }
    /// The debug `locationctl`.
    static var locationctl: String { "\(root)/.build/debug/locationctl" }
    /// A fixture of the project's own (`fixtures/nmea/NAME`).
    static func fixture(_ name: String) -> String { "\(root)/fixtures/nmea/\(name)" }

    /// Why the built daemon cannot be run, or `nil`.
    static var locationdMissing: String? {
        access(locationd, X_OK) == 0 ? nil : "\(locationd) is not built: run `swift build --build-tests` first"
    }
}

/// A private directory for one daemon: its configuration, socket, state and
/// logs, removed with everything in it when the sandbox goes away.
final class DaemonSandbox {
    let path: String

    init(_ label: String) throws {
        var template = Array("\(NSTemporaryDirectory())/locationd-it-\(label)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw ChildProcessError(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit {
        _ = try? FileManager.default.removeItem(atPath: path)
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
        try writeFile(configPath, Array(text.utf8))
    }

    /// Starts `locationd run` on this sandbox's configuration; its output goes to files of its own.
    func startDaemon(environment: [String: String] = [:]) throws -> ChildProcess {
        starts += 1
        let stderrPath = file("locationd-\(starts).stderr")
        stderrPaths.append(stderrPath)
        return try ChildProcess(
            [Package.locationd, "run", "--config", configPath], environment: environment,
            stdoutPath: file("locationd-\(starts).stdout"), stderrPath: stderrPath)
    }

    /// The stderr of every daemon started so far, one after the other.
    var allStderr: String {
        stderrPaths.map { String(decoding: (try? readFile($0)) ?? [], as: UTF8.self) }.joined()
    }

    /// Runs `locationd ARGS` to completion (at most `timeout` s); returns its status, stdout and stderr.
    func runLocationd(_ arguments: [String], timeout: Double = 60) async throws -> (status: Int32?, stdout: String, stderr: String) {
        let out = file("run-\(UInt32.random(in: 0...UInt32.max)).out")
        let err = out + ".err"
        let child = try ChildProcess([Package.locationd] + arguments, stdoutPath: out, stderrPath: err)
        guard await child.waitForExit(timeout: timeout) else {
            child.signal(SIGKILL)
            Issue.record("locationd \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
            return (nil, child.stdout, child.stderr)
        }
        return (child.exitStatus, child.stdout, child.stderr)
    }

    /// A generated walk of at least `sentences` NMEA sentences with ever later times
    /// (`scripts/nmea-fixtures --bench`), for runs that must not repeat a fix time
    /// (a looping gpsfake would, and the engine delivers only newer fixes).
    func longTrack(sentences: Int = 30_000) async throws -> String {
        let path = file("long.nmea")
        let out = file("long.out")
        let child = try ChildProcess(
            ["/usr/bin/python3", Package.root + "/scripts/nmea-fixtures", "--bench", String(sentences), path],
            stdoutPath: out, stderrPath: out)
        guard await child.waitForExit(timeout: 60), child.exitStatus == 0 else {
            throw ChildProcessError(description: "scripts/nmea-fixtures --bench failed: \(child.stdout)")
        }
        return path
    }

    /// The log's bytes (empty if it does not exist yet).
    func logBytes(_ client: String = "logger") -> [UInt8] {
        (try? readFile(logPath(client))) ?? []
    }

    /// The records of a client's log; every line must be a whole record.
    func records(_ client: String = "logger", file: String? = nil) -> [LogRecord] {
        parseLog((try? readFile(file ?? logPath(client))) ?? [], name: file ?? logPath(client))
    }
}

/// Every record of a log's bytes; a line that is not a record is an issue.
func parseLog(_ bytes: [UInt8], name: String) -> [LogRecord] {
    var records: [LogRecord] = []
    var stream = LogRecordStream()
    stream.feed(bytes) { result in
        switch result {
        case .success(let record): records.append(record)
        case .failure(let error): Issue.record("\(name): \(error)")
        }
    }
    stream.finish { result in
        if case .failure(let error) = result { Issue.record("\(name): \(error)") }
    }
    return records
}

/// The fixes of an NMEA file, as the project's parser reads them.
func nmeaFixes(_ path: String) throws -> [Fix] {
    let bytes = try readFile(path)
    var parser = NMEAParser()
    var fixes: [Fix] = []
    bytes.withUnsafeBytes { parser.feed($0) { fixes.append($0) } }
    parser.finish { fixes.append($0) }
    return fixes
}

/// SPEC §3.4 for one always-authorized, updating, in-use, full-accuracy
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
