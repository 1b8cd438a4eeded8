/// Every deliberate disagreement between the NMEA parser and gpsd's expected
/// output (`.chk`) for the captures in ../shared/fixtures/nmea/gpsd-corpus,
/// file by file, with the reason. `GPSDCorpusTests` fails if one stops
/// happening, so the list stays true.
enum GPSDCorpusExpectations {
    /// Disagreements for one capture (by name); none when absent.
    static func forFile(_ name: String) -> NMEAOracle.Expectations {
        let e = NMEAOracle.Expectations()
        switch name {
        default:
            break
        }
        return e
    }
}
