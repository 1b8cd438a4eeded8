#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationDaemon
import Testing
import TestSupport

/// The read tiers against the built daemon and `locationctl`, with uid
/// nobody (via setpriv) on a socket an administrator opened to everyone.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: getuid() == 0, "needs root to run locationctl as another user"),
    .enabled(if: ExternalTool.isAvailable("setpriv"), "needs setpriv (util-linux)"),
    .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct ReadTierRunTests {
    static let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// A daemon reading walk.nmea for a full-accuracy logger, a reduced and a never client.
    static func start(_ plane: ControlPlane) async throws -> ChildProcess {
        let sandbox = plane.sandbox
        try sandbox.writeNMEAConfig(
            device: PackagePaths.fixture("walk.nmea"),
            clients: [
                DaemonSandbox.logger(filter: "none"), ControlPlane.client("rough", authorization: "always", precise: false),
                ControlPlane.client("quiet", authorization: "never"),
            ].joined(separator: "\n"))
        let daemon = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 60) { !sandbox.records().isEmpty }, "\(daemon.stderr)")
        sandbox.openSocketToEveryone()
        return daemon
    }

    /// Whether `text` shows a coordinate: a `lat`/`lon` key, or the fix's latitude to three decimals (`35.681`).
    static func coordinates(in text: String, of fix: LogRecord) -> Bool {
        text.contains("\"lat\"") || text.contains("\"lon\"") || text.contains(String("\(fix.latitude)".prefix(6)))
    }

    @Test func nobodyReadsStatusWithoutACoordinateAndRootLosesItWithServicesOff() async throws {
        let plane = ControlPlane(sandbox: try DaemonSandbox("tiers"))
        let daemon = try await Self.start(plane)
        defer { daemon.signal(SIGTERM) }
        let raw = try #require(plane.sandbox.records().first)

        let (status, stdout, stderr) = try await plane.ctl(["--json", "status"], prefix: Self.nobody)
        #expect(status == 0, "\(stderr)")
        #expect(stdout.contains("\"lastFix\"") && stdout.contains("\"mode\":"), "\(stdout)")
        #expect(!Self.coordinates(in: stdout, of: raw), "\(stdout)")
        let (_, text, _) = try await plane.ctl(["status"], prefix: Self.nobody)
        #expect(text.contains("fix"))
        #expect(!Self.coordinates(in: text, of: raw))

        // Root sees the receiver's position while Location Services are on, and not once they are off.
        let (_, rootOn, _) = try await plane.ctl(["--json", "status"])
        #expect(rootOn.contains("\"lat\""), "\(rootOn)")
        let (off, _, offErrors) = try await plane.ctl(["services", "off"])
        #expect(off == 0, "\(offErrors)")
        for prefix in [[], Self.nobody] {
            let (_, json, _) = try await plane.ctl(["--json", "status"], prefix: prefix)
            #expect(json.contains("\"services\":false"))
            #expect(!Self.coordinates(in: json, of: raw), "\(prefix): \(json)")
        }
        // Nobody cannot turn them back on.
        let (on, _, onErrors) = try await plane.ctl(["services", "on"], prefix: Self.nobody)
        #expect(on == 1)
        #expect(onErrors.contains("not-authorized") || onErrors.contains("needs root"))
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        let audit = FileIO.text(plane.sandbox.file("log/audit.jsonl")) ?? ""
        #expect(audit.contains("\"services\"") && !Self.coordinates(in: audit, of: raw))
        #expect(!Self.coordinates(in: daemon.stderr, of: raw), "no position in a diagnostic line")
        // Fault suite (scripts/faults): how many of the outputs read carried a coordinate where none may be.
        let outputs = [stdout, text, audit, daemon.stderr]
        let leaks = outputs.filter { Self.coordinates(in: $0, of: raw) }.count
        FaultReport.figure(
            "read-tiers-status",
            "uid 65534's status (JSON and text), root's and uid 65534's with services off, the audit log and diagnostics: "
                + "\(leaks) coordinates; root's with services on: \(rootOn.contains("\"lat\"") ? "the position" : "NO position")")
    }

    @Test func nobodysWatchSaysLocationEventsAreNotAuthorized() async throws {
        let plane = ControlPlane(sandbox: try DaemonSandbox("tierwatch"))
        let daemon = try await Self.start(plane)
        defer { daemon.signal(SIGTERM) }
        let raw = try #require(plane.sandbox.records().first)
        let (status, stdout, stderr) = try await plane.ctl(
            ["--json", "watch"], prefix: ["/usr/bin/timeout", "-s", "INT", "2"] + Self.nobody)
        #expect(status != 0)
        #expect(stderr.contains("not-authorized: location events go only to root"), "\(stderr)")
        #expect(stdout.contains("\"event\":\"authorization\""), "\(stdout)")
        #expect(!stdout.contains("\"event\":\"location\""))
        #expect(!Self.coordinates(in: stdout, of: raw))
        FaultReport.figure(
            "read-tiers-watch",
            "uid 65534's watch: \(stdout.occurrences(of: "\"event\":\"location\"")) location events, "
                + "\(stdout.occurrences(of: "\"event\":\"authorization\"")) authorization events, withheld told: "
                + "\(stderr.contains("not-authorized: location events go only to root") ? "yes" : "no")")
    }
}
