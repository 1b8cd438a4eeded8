import Foundation
import LocationCore
import Testing

/// The NMEA parser against gpsd's own decoder (`gpsdecode`, gpsd 3.22) and a
/// real gpsd fed by `gpsfake`, on the project's fixtures and, when present,
/// the real captures in ../shared/fixtures/nmea.
@Suite struct NMEAOracleTests {
    static let packageRoot: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)  // Tests/LocationDaemonTests/NMEA/NMEAOracleTests.swift
        return parts.joined(separator: "/")
    }()
    static let ownFixtures = packageRoot + "/fixtures/nmea"
    static let sharedFixtures = packageRoot + "/../shared/fixtures/nmea"
    static let sharedPresent = FileManager.default.fileExists(atPath: sharedFixtures)

    static let ownNames = [
        "walk.nmea", "equator-meridian.nmea", "antimeridian.nmea", "high-latitude.nmea",
        "midnight.nmea", "no-fix-gaps.nmea", "corrupted.nmea",
    ]
    static let sharedNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sharedFixtures)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted()
    }()

    private func requireTool(_ path: String) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: path),
            "\(path) is missing: install gpsd-clients (scripts/install-deps)")
    }

    private func check(_ path: String, name: String) async throws -> NMEAOracle.Comparison {
        try requireTool(NMEAOracle.gpsdecode)
        let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
        try #require(!bytes.isEmpty, "cannot read \(path)")
        let run = try await NMEATestProcess.run(NMEAOracle.gpsdecode, [], input: path, timeout: 30)
        try #require(run.status == 0, "gpsdecode failed on \(name): \(run.errors)")
        let comparison = NMEAOracle.compare(
            parser: NMEAOracle.parserEpochs(bytes), gpsd: NMEAOracle.gpsdEpochs(run.output),
            expectations: NMEAOracleExpectations.forFile(name))
        #expect(comparison.problems.isEmpty, "\(name) vs gpsdecode:\n\(comparison.problems.joined(separator: "\n"))")
        return comparison
    }

    @Test(arguments: ownNames)
    func ownFixturesAgreeWithGpsdecode(_ name: String) async throws {
        let comparison = try await check(Self.ownFixtures + "/" + name, name: name)
        #expect(comparison.matchedWithFix >= 35, "\(name): too few epochs compared to mean anything")
    }

    @Test(.enabled(if: sharedPresent, "../shared/fixtures/nmea is absent: the real captures are not checked"),
          arguments: sharedNames)
    func realCapturesAgreeWithGpsdecode(_ name: String) async throws {
        let comparison = try await check(Self.sharedFixtures + "/" + name, name: name)
        // tn200 never has a fix and gpsd gives its reports no time: nothing to match.
        if name != "tn200.log" { #expect(comparison.matched > 0, "\(name): nothing compared") }
    }

    @Test(.enabled(if: sharedPresent, "../shared/fixtures/nmea is absent"))
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
        let port = NMEATestProcess.freePort()
        let run = try await NMEATestProcess.run(
            NMEAOracle.gpsfake, ["-1", "-p", "-s", "38400", "-P", "\(port)", path], timeout: 60)
        #expect(run.status == 0, "gpsfake \(name): exit \(run.status)\n\(run.errors)")
        let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
        let comparison = NMEAOracle.compare(
            parser: NMEAOracle.parserEpochs(bytes), gpsd: NMEAOracle.gpsdEpochs(run.output),
            expectations: NMEAOracleExpectations.forFile(name), silenceIsOptional: true)
        #expect(comparison.problems.isEmpty, "\(name) vs gpsd:\n\(comparison.problems.joined(separator: "\n"))")
        #expect(comparison.matchedWithFix >= 35)
    }

    @Test func fixturesAreWhatTheGeneratorMakes() async throws {
        let script = Self.packageRoot + "/scripts/nmea-fixtures"
        let run = try await NMEATestProcess.run("/usr/bin/python3", [script, "--check"], timeout: 60)
        #expect(run.status == 0, "fixtures/nmea differs from scripts/nmea-fixtures: \(run.errors)")
    }
}
