import LocationCodecs
import LocationCore
import LocationValues
import Testing
import TestSupport

/// The NMEA parser's sky view (#15): satellites used from the last epoch,
/// in view from GSV (summed over constellations, once per satellite over
/// signals), DOPs from GSA; GSV changes no fix.
@Suite struct NMEASkyTests {
    /// GPS: 10 in view over three sentences.
    static let gpsGSV = [
        "GPGSV,3,1,10,01,40,083,46,10,12,200,38,12,55,300,42,15,05,010,30",
        "GPGSV,3,2,10,25,33,120,41,26,18,250,36,27,70,045,44,28,22,160,39",
        "GPGSV,3,3,10,31,09,330,33,02,03,100,",
    ].map { NMEATest.sentence($0) }.joined()
    /// Galileo (NMEA 4.10, signal ids): 3 on E1 (id 7), 2 of them on E5a too (id 1).
    static let galileoGSV = [
        "GAGSV,1,1,03,04,40,083,46,11,12,200,38,19,55,300,42,7",
        "GAGSV,1,1,02,04,40,083,40,11,12,200,31,1",
    ].map { NMEATest.sentence($0) }.joined()

    static func parser(_ text: String) -> (NMEAParser, [Fix]) {
        var parser = NMEAParser()
        var fixes: [Fix] = []
        Array(text.utf8).withUnsafeBytes { parser.feed($0) { fixes.append($0) } }
        return (parser, fixes)
    }

    @Test func usedDopsAndInViewComeFromGSAAndGSV() {
        let text = NMEATest.epoch("120000.00") + Self.gpsGSV + Self.galileoGSV + NMEATest.epoch("120001.00")
        var (parser, _) = Self.parser(text)
        parser.flush { _ in }
        let sky = parser.sky
        #expect(sky.satellitesUsed == 9, "the GSA lists nine PRNs")
        #expect(sky.satellitesVisible == 13, "10 GPS + 3 Galileo, the two on E5a counted once")
        #expect(sky.hdop == 0.87 && sky.pdop == 1.67 && sky.vdop == 1.42)
    }

    @Test func aConstellationsNewGSVReplacesItsCountAndFinishForgetsThem() {
        let fewer = NMEATest.sentence("GPGSV,1,1,04,01,40,083,46,10,12,200,38,12,55,300,42,15,05,010,30")
        var (parser, _) = Self.parser(NMEATest.epoch("120000.00") + Self.gpsGSV + fewer)
        #expect(parser.sky.satellitesVisible == 4)
        parser.finish { _ in }
        #expect(parser.sky.satellitesVisible == nil, "another receiver may follow")
    }

    @Test func noGSVNoInViewAndPlaceholderDopsAreNone() {
        let text = NMEATest.sentence("GPGGA,120000.00,3540.87194,N,13946.02401,E,1,09,0.87,34.5,M,18.4,M,,")
            + NMEATest.sentence("GPGSA,A,3,01,10,12,15,25,26,27,28,31,,,,99.99,0.87,99.99")
            + NMEATest.sentence("GPRMC,120000.00,A,3540.87194,N,13946.02401,E,2.304,157.60,140326,,,A")
        var (parser, _) = Self.parser(text)
        parser.flush { _ in }
        let sky = parser.sky
        #expect(sky.satellitesVisible == nil)
        #expect(sky.pdop == nil && sky.vdop == nil)
        #expect(sky.hdop == 0.87)
        #expect(NMEAParser().sky.isEmpty)
    }

    @Test func anEpochWithoutAFixLeavesNoDopsBehind() {
        let lost = NMEATest.sentence("GPGGA,120001.00,,,,,0,00,,,M,,M,,")
            + NMEATest.sentence("GPGSA,A,1,,,,,,,,,,,,,,,")
            + NMEATest.sentence("GPRMC,120001.00,V,,,,,,,140326,,,N")
        var (parser, fixes) = Self.parser(NMEATest.epoch("120000.00") + lost)
        parser.flush { fixes.append($0) }
        #expect(fixes.last?.mode == .noFix, "\(fixes)")
        let sky = parser.sky
        #expect(sky.hdop == nil && sky.pdop == nil && sky.vdop == nil, "\(sky)")
    }

    @Test func aChangedSkyIsTakenOnceNamedAndAnUnchangedOneNotAgain() {
        var parser = NMEAParser(device: "/dev/ttyS1")
        #expect(parser.takeChangedSky() == nil, "nothing read: no view")
        func feed(_ text: String) { Array(text.utf8).withUnsafeBytes { parser.feed($0) { _ in } } }

        feed(NMEATest.epoch("120000.00"))
        let before = parser.takeChangedSky()
        #expect(before?.hdop == 0.87 && before?.satellitesUsed == nil, "the epoch is not out yet: \(String(describing: before))")
        var flushed: [Fix] = []
        parser.flush { flushed.append($0) }
        #expect(flushed.count == 1)
        let first = parser.takeChangedSky()
        #expect(first?.satellitesUsed == 9, "the epoch's end says how many it used: \(String(describing: first))")
        #expect(first?.device == "/dev/ttyS1", "named as the fixes are")
        #expect(first?.hdop == 0.87 && first?.pdop == 1.67, "\(String(describing: first))")
        #expect(parser.takeChangedSky() == nil, "nothing read since")
        feed(NMEATest.epoch("120001.00") + NMEATest.epoch("120002.00"))
        #expect(parser.takeChangedSky() == nil, "more epochs with the same sky")

        feed(NMEATest.epoch("120003.00", hdop: "1.10"))
        #expect(parser.takeChangedSky()?.hdop == 1.1, "a new HDOP")
        feed(Self.gpsGSV)
        let seen = parser.takeChangedSky()
        #expect(seen?.satellitesVisible == 10 && seen?.satellites.count == 10, "\(String(describing: seen))")
        parser.finish { _ in }
        let forgotten = parser.takeChangedSky()
        #expect(forgotten?.satellitesVisible == nil && forgotten?.satellites.isEmpty == true, "the end of input forgets the satellites")
        #expect(forgotten?.hdop == 1.1)
    }

    @Test func gsvChangesNoFixAndCountsAsUsed() {
        let plain = (0..<5).map { NMEATest.epoch("12000\($0).00") }
        let without = NMEATest.parse(plain.joined())
        let with = NMEATest.parse(plain.map { $0 + Self.gpsGSV }.joined())
        #expect(without.fixes.count == 5)
        #expect(NMEATest.same(with.fixes, without.fixes))
        // A GSV is a row of the phrase table: read (for the sky), not ignored.
        #expect(with.statistics.used == without.statistics.used + 15)
        #expect(with.statistics.ignored == without.statistics.ignored)
        #expect(with.statistics.addsUp)
        #expect(with.statistics.malformed == 0)
    }
}
