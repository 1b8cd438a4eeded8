import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `locationctl status` on a running daemon reading a walk with GGA, GSA, GSV
/// and RMC, through a real gpsd (gpsfake) or as an NMEA file (#15): the position, the
/// fix's accuracy and mode, satellites used and seen, HDOP/PDOP/VDOP from
/// gpsd's SKY, the fix age and the receiver's clock offset (the walk is
/// dated 2026-03-14, the system clock is not).
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct StatusRunTests {
    static let epochs = NMEALogWriter.walk(count: 20, sentences: [.gga, .gsa, .gsv, .rmc])

    /// The status once it shows the walk's last fix and a sky view with a count in view.
    static func statusAtTheEnd(_ plane: ControlPlane, _ daemon: ChildProcess) async throws -> StatusReport {
        let last = try #require(Self.epochs.last)
        var report: StatusReport?
        let arrived = await waitUntilAsync(timeout: 60) {
            guard let (code, json, _) = try? await plane.ctl(["--json", "status"]), code == 0 else { return false }
            report = try? StatusReport(json: JSONValue.parse(Array(json.utf8)))
            return report?.status.lastFix?.time == last.time && report?.sky?.satellitesVisible != nil
        }
        try #require(arrived, "status never showed the walk's last fix and a sky view: \(String(describing: report)); \(daemon.stderr)")
        return try #require(report)
    }

    @Test func anNMEASourcesStatusHasTheSkyFromGSAAndGSV() async throws {
        let log = NMEALogWriter.write(Self.epochs, name: "status-nmea-sky")
        defer { unlink(log) }
        let plane = ControlPlane(sandbox: try DaemonSandbox("status-nmea"))
        try plane.sandbox.writeNMEAConfig(device: log, clients: DaemonSandbox.logger(filter: "none"))
        let daemon = try plane.sandbox.startDaemon()
        defer { daemon.signal(SIGTERM) }
        let status = try await Self.statusAtTheEnd(plane, daemon)
        #expect(status.sky?.counts == SkyView(
            satellitesUsed: NMEALogWriter.used, satellitesVisible: NMEALogWriter.inView, hdop: NMEALogWriter.dops.hdop,
            pdop: NMEALogWriter.dops.pdop, vdop: NMEALogWriter.dops.vdop, device: log))
        #expect(status.status.lastFix?.satellitesUsed == NMEALogWriter.used)
        let (_, text, _) = try await plane.ctl(["status"])
        #expect(text.contains("sky: 8 of 10 satellites used, HDOP 0.90, PDOP 1.80, VDOP 1.50"), "\(text)")
    }

    @Test(.enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
    func statusShowsThePositionTheSkyAndTheFixAgeFromGPSD() async throws {
        let log = NMEALogWriter.write(Self.epochs, name: "status-sky")
        defer { unlink(log) }
        let plane = ControlPlane(sandbox: try DaemonSandbox("status-sky"))
        let sandbox = plane.sandbox
        // gpsd stays up a minute after the walk, so the source is still connected when status is read.
        let fake = try await GPSFake.start(log: log, options: .init(cycle: 0.01, once: true, gated: true, linger: 60))
        defer { fake.stop() }
        try sandbox.writeConfig(port: fake.port, clients: DaemonSandbox.logger(filter: "none"))
        let daemon = try sandbox.startDaemon()
        defer { daemon.signal(SIGTERM) }
        try #require(await DaemonRunTests.waitForConnection(daemon), "\(daemon.stderr)")
        fake.release()

        let last = try #require(Self.epochs.last)
        let status = try await Self.statusAtTheEnd(plane, daemon)

        let fix = try #require(status.status.lastFix)
        #expect(fix.mode == .threeD)
        #expect(abs(fix.latitude - last.latitude) < 1e-7 && abs(fix.longitude - last.longitude) < 1e-7)
        #expect(fix.horizontalError != nil, "gpsd's eph, from the GGA's HDOP")
        #expect(fix.satellitesUsed == NMEALogWriter.used)
        let sky = try #require(status.sky)
        #expect(sky.satellitesUsed == NMEALogWriter.used)
        #expect(sky.satellitesVisible == NMEALogWriter.inView)
        #expect(sky.hdop == NMEALogWriter.dops.hdop && sky.pdop == NMEALogWriter.dops.pdop && sky.vdop == NMEALogWriter.dops.vdop)
        let age = try #require(status.status.lastFixAge)
        #expect(age >= 0 && age < 120, "the fix age is the daemon's clock, not the walk's date: \(age)")
        let skyAge = try #require(status.skyAge)
        #expect(skyAge >= 0 && skyAge < 120)
        // The receiver's clock is the walk's date: the offset is that far from the system clock.
        let offset = try #require(status.receiverClockOffset)
        let now = Double(time(nil))
        #expect(abs(offset - (last.time - now)) < 120, "offset \(offset)")

        let (code, text, errors) = try await plane.ctl(["status"])
        #expect(code == 0, "\(errors)")
        // Once the walk has ended gpsd may have closed the receiver: then it is the last fix and position.
        #expect(text.contains("3D fix ") && text.contains(", 8 satellites"), "\(text)")
        let position = [fix.latitude, fix.longitude].map { FixedDecimal.format($0, decimals: 7) ?? "?" }.joined(separator: ",")
        #expect(text.contains("position: \(position)"), "\(text)")
        #expect(text.contains("sky: 8 of 10 satellites used, HDOP 0.90, PDOP 1.80, VDOP 1.50"), "\(text)")
        #expect(text.contains("receiver clock: ") && text.contains("the system clock"), "\(text)")

        // Someone outside the socket group (where the test may switch users): the sky and the clock, no position.
        guard getuid() == 0, ExternalTool.isAvailable("setpriv") else {
            try Test.cancel("the half read by someone outside the socket group needs root and setpriv (util-linux)")
        }
        chmod(sandbox.path, 0o755)
        chmod(sandbox.file("run"), 0o755)
        chmod(sandbox.socketPath, 0o666)
        let (nobodyCode, json, nobodyErrors) = try await plane.ctl(["--json", "status"], prefix: ReadTierRunTests.nobody)
        #expect(nobodyCode == 0, "\(nobodyErrors)")
        let stripped = try StatusReport(json: JSONValue.parse(Array(json.utf8)))
        #expect(!json.contains("\"lat\"") && !json.contains(String(position.prefix(6))), "\(json)")
        #expect(stripped.sky == sky.counts && stripped.status.lastFix?.satellitesUsed == NMEALogWriter.used)
        #expect(!sky.satellites.isEmpty, "root sees each satellite of gpsd's SKY")
        #expect(!json.contains("\"satellites\""), "no satellite list for a reader outside the socket group: \(json)")
        #expect(json.contains("\"clockOffset\":"), "\(json)")
        let (_, nobodyText, _) = try await plane.ctl(["status"], prefix: ReadTierRunTests.nobody)
        #expect(nobodyText.contains("position: not shown — only root and members of the socket group see it"), "\(nobodyText)")
        #expect(nobodyText.contains("sky: 8 of 10 satellites used"), "\(nobodyText)")
    }
}
