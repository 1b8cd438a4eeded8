import LocationCore
import Testing
import TestSupport

/// The NMEA parser over gpsd's regression corpus in
/// ../shared/fixtures/nmea/gpsd-corpus (70 captures, see its README): each
/// capture against its `.chk`, gpsd master's own output for it (gpsfake in
/// pipe mode), epoch by epoch on time of day, position, mode and eph.
/// Skipped with a message where ../shared is absent.
@Suite struct GPSDCorpusTests {
    static let corpus = PackagePaths.sharedNMEA + "/gpsd-corpus"
    static let present = PackagePaths.hasSharedNMEA && (try? FileIO.read(corpus + "/README.md")) != nil
    static let names = present ? FileIO.files(in: corpus, suffix: ".log") : []

    @Test(.enabled(if: present, "../shared/fixtures/nmea/gpsd-corpus is absent: the gpsd corpus is not checked"))
    func theWholeCorpusIsThere() {
        #expect(Self.names.count == 70)
        for name in Self.names { #expect((try? FileIO.read(Self.corpus + "/" + name + ".chk")) != nil, "\(name) has no .chk") }
    }

    @Test(.enabled(if: present, "../shared/fixtures/nmea/gpsd-corpus is absent: the gpsd corpus is not checked"),
          arguments: names)
    func decodesAsGpsdDoes(_ name: String) throws {
        let bytes = try FileIO.read(Self.corpus + "/" + name)
        let expected = try FileIO.read(Self.corpus + "/" + name + ".chk")
        // gpsfake runs gpsd as a daemon, which reports the first cycle gpsdecode leaves out: silence
        // listed for the first cycle is optional here.
        let comparison = NMEAOracle.compare(
            parser: NMEAOracle.parserEpochs(bytes), gpsd: NMEAOracle.gpsdEpochs(expected),
            expectations: GPSDCorpusExpectations.forFile(name), silenceIsOptional: true)
        #expect(comparison.problems.isEmpty, "\(name) vs its .chk:\n\(comparison.problems.prefix(20).joined(separator: "\n"))")
    }
}
