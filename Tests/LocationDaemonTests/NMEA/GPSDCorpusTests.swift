import LocationCore
import Testing
import TestSupport

/// The NMEA parser over gpsd's regression corpus in
/// fixtures/gpsd/gpsd-corpus (70 captures, see its README): each
/// capture against the system's `gpsdecode` (gpsd 3.22, Debian 12), epoch by
/// epoch on time of day, position, mode and eph, like `NMEAOracleTests` for
/// the captures one folder up.
///
/// The oracle is `gpsdecode`, not the `.chk` files beside the captures: the
/// `.chk` files are gpsd master run as a daemon under gpsfake, which reports
/// a TPV after every sentence, mid-cycle (a cycle's first sentence is
/// reported with the previous sentence's position, before the rest of the
/// epoch has arrived), and its mode and eph rules are newer than the gpsd
/// the daemon runs beside on Debian. `gpsdecode` is the decoder the issue
/// (#8) names and the gpsd the project ships with; where the parser departs
/// from it, `GPSDCorpusExpectations` says where and why.
@Suite(.timeLimit(.minutes(10))) struct GPSDCorpusTests {
    static let corpus = PackagePaths.gpsdCaptures + "/gpsd-corpus"
    static let names = FileIO.files(in: corpus, suffix: ".log")

    @Test
    func theWholeCorpusIsThere() {
        #expect(Self.names.count == 70)
        for name in Self.names { #expect((try? FileIO.read(Self.corpus + "/" + name + ".chk")) != nil, "\(name) has no .chk") }
    }

    @Test(.enabled(if: ExternalTool.isAvailable("gpsdecode"), "needs gpsdecode (gpsd-clients)"),
          arguments: names)
    func decodesAsGpsdDoes(_ name: String) async throws {
        _ = try await NMEAOracle.checkAgainstGpsdecode(
            Self.corpus + "/" + name, name: name, expectations: GPSDCorpusExpectations.forFile(name))
    }
}
