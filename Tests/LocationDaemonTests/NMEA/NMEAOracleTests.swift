import LocationCore
import Testing
import TestSupport

/// The NMEA parser against gpsd's own decoder (`gpsdecode`, gpsd 3.22) and a
/// real gpsd fed by `gpsfake`, on the project's fixtures and the real
/// captures in fixtures/gpsd.
@Suite(.timeLimit(.minutes(10))) struct NMEAOracleTests {
    static let ownFixtures = PackagePaths.projectNMEA
    static let sharedFixtures = PackagePaths.gpsdCaptures

    static let ownNames = [
        "walk.nmea", "equator-meridian.nmea", "antimeridian.nmea", "high-latitude.nmea",
        "midnight.nmea", "no-fix-gaps.nmea", "corrupted.nmea",
    ]
    static let sharedNames = FileIO.files(in: sharedFixtures, suffix: ".log")

    private func requireTool(_ path: String) throws {
        try #require(
            FileIO.isExecutable(path),
            "\(path) is missing: install gpsd-clients (scripts/install-deps)")
    }

    private func check(_ path: String, name: String) async throws -> NMEAOracle.Comparison {
        try requireTool(NMEAOracle.gpsdecode)
        return try await NMEAOracle.checkAgainstGpsdecode(path, name: name, expectations: NMEAOracleExpectations.forFile(name))
    }

    @Test(arguments: ownNames)
    func ownFixturesAgreeWithGpsdecode(_ name: String) async throws {
        let comparison = try await check(Self.ownFixtures + "/" + name, name: name)
        #expect(comparison.matchedWithFix >= 35, "\(name): too few epochs compared to mean anything")
    }

    @Test(arguments: sharedNames)
    func realCapturesAgreeWithGpsdecode(_ name: String) async throws {
        let comparison = try await check(Self.sharedFixtures + "/" + name, name: name)
        // tn200 never has a fix and gpsd gives its reports no time: nothing to match.
        if name != "tn200.log" { #expect(comparison.matched > 0, "\(name): nothing compared") }
    }

    @Test
    func everyRealCaptureIsChecked() {
        #expect(Self.sharedNames.count == 10)
    }

    /// The fixtures are also what the demo and the daemon's tests replay
    /// through gpsfake: each must go through a real gpsd cleanly, and gpsd's
    /// fixes must be the parser's.
    @Test(.serialized, arguments: ownNames)
    func ownFixturesGoThroughGpsfake(_ name: String) async throws {
        try requireTool(NMEAOracle.gpsfake)
        let path = Self.ownFixtures + "/" + name
        // gpsfake in pipe mode (its own client, gpsd's reports on stdout), in a
        // gpsfake slot like every other run.
        // A TMPDIR of its own for gpsd's control socket (see GPSFake).
        let scratch = try ScratchDirectory("gpsfake")
        // gpsfake hands gpsd the receiver as soon as gpsd's control socket
        // file exists; on a loaded machine gpsd may not listen on it yet, the
        // hand-over is silently lost, and gpsfake times out with nothing
        // reported. That run says nothing about the file: try again (as
        // GPSFake.start does). So does any run that failed before gpsd
        // reported anything (under load gpsfake has also exited 1 with
        // nothing on stderr); three such runs in a row fail the test.
        var attempt = 0
        var run: ChildProcess.Outcome
        repeat {
            attempt += 1
            run = try await GPSFakeSlots.shared.withSlot {
                let port = try LoopbackTCP.freePort()
                return try await ChildProcess.run(
                    [NMEAOracle.gpsfake, "-1", "-p", "-s", "38400", "-P", "\(port)", path],
                    environment: .inherited(["TMPDIR": scratch.path]))
            }
        } while attempt < 3 && run.status != 0 && NMEAOracle.gpsdEpochs(run.stdout).isEmpty
        #expect(run.status == 0, "gpsfake \(name): exit \(run.status)\n\(run.stderr)")
        let bytes = (try? FileIO.read(path)) ?? []
        let comparison = NMEAOracle.compare(
            parser: NMEAOracle.parserEpochs(bytes), gpsd: NMEAOracle.gpsdEpochs(run.stdout),
            expectations: NMEAOracleExpectations.forFile(name), silenceIsOptional: true)
        #expect(comparison.problems.isEmpty, "\(name) vs gpsd:\n\(comparison.problems.joined(separator: "\n"))")
        #expect(comparison.matchedWithFix >= 35)
    }

    @Test func fixturesAreWhatTheGeneratorMakes() async throws {
        let script = PackagePaths.path("scripts/nmea-fixtures")
        let run = try await ChildProcess.run(["/usr/bin/python3", script, "--check"])
        #expect(run.status == 0, "fixtures/nmea differs from scripts/nmea-fixtures: \(run.stderr)")
    }
}
