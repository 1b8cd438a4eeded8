import LocationCore
import LocationValues
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The sky for those allowed to see it (#32 item 4), on a running locationd fed
/// by gpsd and gpsfake with a walk that has GSV and GSA: `gpspipe -w` on a
/// client's `gpsd_port` gets gpsd-style `SKY` objects with each satellite while
/// the client has full accuracy (and cgps draws them), and none once it is
/// reduced; `locationctl status --sky` shows the same satellites to root.
@Suite(
    .timeLimit(.minutes(10)),
    .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"),
    .enabled(if: ExternalTool.isAvailable("gpspipe"), "needs gpspipe (gpsd-clients)"))
struct ProgramSkyRunTests {
    static let epochs = NMEALogWriter.walk(count: 3000, sentences: [.gga, .gsa, .gsv, .rmc])

    static func objects(_ text: String, _ kind: String) -> [JSONValue] {
        text.split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }
            .filter { $0["class"]?.stringValue == kind }
    }

    @Test func aFullAccuracyClientsProgramsGetTheSkyAndAReducedOnesNone() async throws {
        let log = NMEALogWriter.write(Self.epochs, name: "program-sky")
        defer { unlink(log) }
        let sandbox = try DaemonSandbox("program-sky")
        let plane = ControlPlane(sandbox: sandbox)
        let fake = try await GPSFake.start(log: log, options: .init(cycle: 0.01, once: true, gated: true))
        defer { fake.stop() }
        let port = try LoopbackTCP.freePort()
        let client = [
            "[client.qgis]", "log = qgis.jsonl", "distance_filter = none", "usage = QGIS shows where you are",
            "authorization = always", "updating = on", "in_use = on", "reduced_interval = 0", "gpsd_port = \(port)",
        ].joined(separator: "\n") + "\n"
        try plane.writeConfig(port: fake.port, clients: [client])
        let daemon = try sandbox.startDaemon()
        defer { daemon.signal(SIGTERM) }
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("gpsd: connected to") }, "\(daemon.stderr)")
        fake.release()

        // Full accuracy: SKY beside the TPVs, gpsd's shape, each satellite of the walk's GSV.
        let full = try await ChildProcess.run(["gpspipe", "-w", "-n", "30", "127.0.0.1:\(port)"], timeout: 90)
        let skies = Self.objects(full.output, "SKY")
        #expect(!Self.objects(full.output, "TPV").isEmpty, "\(full.output.prefix(2000))")
        let sky = try #require(skies.first, "no SKY for a full-accuracy client: \(full.output.prefix(3000)) \(daemon.stderr)")
        // Named as the TPVs name the receiver (gpsd's pty for the walk).
        let tpvDevice = Self.objects(full.output, "TPV").first?["device"]?.stringValue
        #expect(sky["device"]?.stringValue == tpvDevice && tpvDevice?.hasPrefix("/dev/") == true, "\(sky)")
        let satellites = sky["satellites"]?.arrayValue ?? []
        #expect(satellites.count == NMEALogWriter.inView, "\(sky)")
        #expect(sky["nSat"]?.intValue == NMEALogWriter.inView && sky["uSat"]?.intValue == NMEALogWriter.used, "\(sky)")
        #expect(satellites.filter { $0["used"]?.boolValue == true }.count == NMEALogWriter.used, "\(sky)")
        #expect(satellites.allSatisfy { $0["PRN"]?.intValue != nil && $0["el"]?.numberValue != nil && $0["az"]?.numberValue != nil })
        #expect(sky["hdop"]?.numberValue == NMEALogWriter.dops.hdop)
        // At most once per epoch, and never the same view twice in a row.
        #expect(skies.count <= Self.objects(full.output, "TPV").count + 1, "\(full.output.prefix(3000))")
        #expect(zip(skies, skies.dropFirst()).allSatisfy { $0 != $1 }, "\(skies)")

        // A program that comes later gets the sky too, though it may not have changed since.
        let later = try await ChildProcess.run(["gpspipe", "-w", "-n", "12", "127.0.0.1:\(port)"], timeout: 90)
        #expect(!Self.objects(later.output, "SKY").isEmpty, "\(later.output.prefix(3000))")

        // cgps draws the sky: its satellite window lists the walk's satellites (PRN, elevation, azimuth, SNR, used).
        if ExternalTool.isAvailable("cgps", "script", "timeout") {
            // `script`'s input stays open past cgps's 6 s: at end of its input `script` ends the
            // session at once, and a cgps slower to draw than that (a loaded machine) showed nothing.
            // `script` runs its command with $SHELL; under dash (SHELL=/bin/sh, as on CI) `timeout`
            // without --foreground puts cgps in a background process group of the terminal, and
            // curses' first tcsetattr stops it with SIGTTOU: an empty screen. Both are pinned here.
            let screen = try await ChildProcess.run(
                ["env", "TERM=xterm", "COLUMNS=100", "LINES=40", "SHELL=/bin/sh", "sh", "-c",
                 "sleep 8 | script -qfec 'timeout --foreground 6 cgps 127.0.0.1:\(port)' /dev/null"],
                timeout: 60)
            // Its rows, the terminal's escape sequences taken out: `GP  4    4  17.0   36.0  26.0  Y`.
            let text = screen.output.replacing(/\x1b(\[[0-9;?]*[a-zA-Z]|\([0B])/, with: "")
            var used: Set<Int> = []
            var seen: Set<Int> = []
            for row in text.matches(of: /GP +(\d+) +\d+ +[\d.]+ +[\d.]+ +[\d.]+ +([YN])/) {
                guard let prn = Int(row.output.1) else { continue }
                seen.insert(prn)
                if row.output.2 == "Y" { used.insert(prn) }
            }
            #expect(seen.count == NMEALogWriter.inView && used.count == NMEALogWriter.used, "cgps's screen: \(text.suffix(3000)) \(screen.stderr)")
            // #39: cgps takes the endpoint for the gpsd it was built with: no "WARNING gpsd release …, expected …".
            #expect(!text.contains("WARNING"), "cgps's screen: \(text.prefix(3000)) \(screen.stderr)")
        }

        // Root's `status --sky`: the same satellites, as a table.
        let (code, table, errors) = try await plane.ctl(["status", "--sky"])
        #expect(code == 0, "\(errors)")
        #expect(table.contains("    PRN  gnss          el    az   SNR  used"), "\(table)")
        #expect(table.split(separator: "\n").filter { $0.hasSuffix("yes") }.count == NMEALogWriter.used, "\(table)")

        // Reduced: the TPVs go on (coarse), no SKY at all.
        #expect(try await plane.ctl(["accuracy", "qgis", "reduced"]).status == 0)
        let reduced = try await ChildProcess.run(["gpspipe", "-w", "-n", "25", "127.0.0.1:\(port)"], timeout: 90)
        #expect(Self.objects(reduced.output, "TPV").count >= 10, "\(reduced.output.prefix(2000))")
        #expect(Self.objects(reduced.output, "SKY").isEmpty, "a reduced client's programs got a SKY: \(reduced.output.prefix(3000))")
        let status = try await plane.status(of: "qgis")
        #expect(status.delivering, "the reduced fixes flowed meanwhile")
    }
}
