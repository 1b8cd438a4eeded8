import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The running daemon as `locationctl` sees it: a sandbox whose
/// configuration this file writes (any clients, a socket group, a policy),
/// and the built `locationctl` run against its socket.
struct ControlPlane {
    let sandbox: DaemonSandbox

    /// One client section with the keys a transition test needs.
    static func client(
        _ name: String, authorization: String = "ask", precise: Bool = true, inUse: Bool = true, updating: Bool = true,
        usage: Bool = true, usageAlways: Bool = true, onceGrace: Double? = nil, filter: String = "none"
    ) -> String {
        var lines = [
            "[client.\(name)]", "log = \(name).jsonl", "distance_filter = \(filter)", "desired_accuracy = kilometer",
            "authorization = \(authorization)", "precise = \(precise ? "on" : "off")", "updating = \(updating ? "on" : "off")",
            "in_use = \(inUse ? "on" : "off")", "purpose.survey = Precise track for a survey",
        ]
        if usage { lines.append("usage = \(name) logs coordinates") }
        if usageAlways { lines.append("usage_always = \(name) logs coordinates in the background") }
        if let onceGrace { lines.append("once_grace = \(onceGrace)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the configuration: gpsd at `port`, `socketGroup`, the clients, `[policy] restricted`.
    func writeConfig(port: Int, socketGroup: String = "", clients: [String], restricted: [String] = []) throws {
        let text = """
            # written by the control-plane end-to-end tests
            [daemon]
            socket = \(sandbox.socketPath)
            socket_group = \(socketGroup)
            state_dir = \(sandbox.stateDirectory)
            log_dir = \(sandbox.logDirectory)
            fsync = always

            [source]
            type = gpsd
            host = 127.0.0.1
            port = \(port)

            \(clients.joined(separator: "\n"))
            [policy]
            restricted = \(restricted.joined(separator: ", "))

            """
        try FileIO.write(sandbox.configPath, text)
    }

    /// Runs `locationctl --socket SOCKET ARGS` (optionally through `prefix`, e.g. setpriv) to the end.
    func ctl(_ arguments: [String], prefix: [String] = []) async throws -> (status: Int32?, stdout: String, stderr: String) {
        let outcome = try await ChildProcess.run(
            prefix + [PackagePaths.product("locationctl"), "--socket", sandbox.socketPath] + arguments, environment: .only([:]))
        return (outcome.status, outcome.output, outcome.stderr)
    }

    /// `locationctl --json ARGS`: the exit status and the reply.
    func reply(_ arguments: [String]) async throws -> (status: Int32?, reply: JSONValue?) {
        let (status, stdout, _) = try await ctl(["--json"] + arguments)
        return (status, try? JSONValue.parse(Array(stdout.utf8)))
    }

    /// `locationctl --json status`, decoded.
    func status() async throws -> StatusReport {
        let (status, stdout, stderr) = try await ctl(["--json", "status"])
        try #require(status == 0, "status failed: \(stderr)")
        return try StatusReport(json: try JSONValue.parse(Array(stdout.utf8)))
    }

    /// The fixes the daemon's (first) source has handed on so far: `status`'s counts.
    func sourceFixes() async throws -> Int {
        try await status().sourceCounts?.fixes ?? 0
    }

    /// Waits until the source has handed on `count` fixes more than `since`: "fixes kept
    /// coming", the condition a check that something does *not* happen waits on instead of a
    /// sleep. False if they did not within `timeout` seconds.
    func fixesCame(_ count: Int, after since: Int, timeout: Double = 60) async -> Bool {
        await waitUntilAsync(timeout: timeout, every: 0.25) { ((try? await sourceFixes()) ?? 0) >= since + count }
    }

    /// One client's status.
    func status(of client: String) async throws -> ClientStatus {
        try #require(try await status().status.clients.first { $0.authorization.client == client })
    }
}
