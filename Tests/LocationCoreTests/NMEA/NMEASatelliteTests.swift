import Testing
import TestSupport

@testable import LocationCodecs
@testable import LocationCore
@testable import LocationValues

/// Each satellite of an NMEA source's sky (#32 item 4): GSV cycles of every
/// talker, numbered as gpsd numbers them, used when a GSA lists them; garbled
/// and absurd values unknown, a satellite without a number skipped; checked
/// against gpsd's own SKY output for real captures.
@Suite struct NMEASatelliteTests {
    static func sky(_ text: String) -> SkyView {
        var parser = NMEAParser()
        Array(text.utf8).withUnsafeBytes { parser.feed($0) { _ in } }
        return parser.sky
    }

    static let gps = [
        "GPGSV,2,1,05,01,40,083,46,10,12,200,38,12,55,300,,15,05,010,30",
        "GPGSV,2,2,05,33,20,100,35",
    ].map { NMEATest.sentence($0) }.joined()
    static let glonass = NMEATest.sentence("GLGSV,1,1,02,66,37,078,27,75,04,018,")
    static let used = NMEATest.sentence("GNGSA,A,3,01,10,66,,,,,,,,,,1.56,0.91,1.27")

    @Test func aGSVCycleOfSeveralSentencesListsEverySatelliteOfEveryTalker() {
        let sky = Self.sky(Self.gps + Self.glonass + Self.used)
        #expect(sky.satellites.map(\.prn) == [1, 10, 12, 15, 33, 66, 75])
        #expect(sky.satellites.filter(\.used).map(\.prn) == [1, 10, 66], "the GSA's list, across constellations")
        let first = sky.satellites[0]
        #expect(first.elevation == 40 && first.azimuth == 83 && first.snr == 46 && first.gnssID == 0 && first.svID == 1)
        #expect(sky.satellites[2].snr == nil, "an empty SNR is not tracked: unknown")
        let sbas = sky.satellites[4]
        #expect(sbas.gnssID == 1 && sbas.svID == 120, "NMEA 33 is SBAS 120, as gpsd says")
        let glonass = sky.satellites[5]
        #expect(glonass.gnssID == 6 && glonass.svID == 2)
    }

    @Test func anIncompleteOrDisorderedCycleIsNotTakenAndTheLastWholeOneStands() {
        let half = NMEATest.sentence("GPGSV,2,1,05,02,40,083,46,03,12,200,38,04,55,300,,05,05,010,30")
        #expect(Self.sky(half).satellites.isEmpty, "a cycle whose last sentence never came")
        let disordered = NMEATest.sentence("GPGSV,3,1,05,02,40,083,46") + NMEATest.sentence("GPGSV,3,3,05,03,40,083,46")
        #expect(Self.sky(Self.gps + disordered).satellites.map(\.prn) == [1, 10, 12, 15, 33])
    }

    @Test func absurdValuesAreUnknownAndASatelliteWithoutANumberIsSkipped() {
        let garbled = NMEATest.sentence("GPGSV,1,1,04,07,95,400,-3,,10,20,30,00,10,10,10,08,x,1y,99")
        let sky = Self.sky(garbled)
        #expect(sky.satellites.map(\.prn) == [7, 8], "no number and number 0 are skipped: \(sky.satellites)")
        #expect(sky.satellites[0].elevation == nil && sky.satellites[0].azimuth == nil && sky.satellites[0].snr == nil)
        #expect(sky.satellites[1].elevation == nil && sky.satellites[1].azimuth == nil && sky.satellites[1].snr == 99)
        #expect(sky.satellitesVisible == 4, "the count in view is the receiver's")
    }

    @Test func aSatelliteOnTwoSignalsIsListedOnceWithItsStrongerSignal() {
        let text = [
            "GAGSV,1,1,02,04,40,083,36,11,12,200,38,7",
            "GAGSV,1,1,01,04,40,083,44,1",
        ].map { NMEATest.sentence($0) }.joined() + NMEATest.sentence("GNGSA,A,3,04,,,,,,,,,,,,1.5,0.9,1.2,3")
        let sky = Self.sky(text)
        #expect(sky.satellites.map(\.prn) == [304, 311], "Galileo numbered from 301 as gpsd does")
        #expect(sky.satellites[0].snr == 44 && sky.satellites[0].used, "system id 3 names Galileo's 04")
        #expect(!sky.satellites[1].used)
    }

    @Test func consecutiveGSAsMakeOneListAndTheNextEpochReplacesIt() {
        let first = NMEATest.sentence("GNGSA,A,3,01,10,,,,,,,,,,,1.5,0.9,1.2") + NMEATest.sentence("GNGSA,A,3,66,,,,,,,,,,,,1.5,0.9,1.2")
        let gga = NMEATest.sentence("GPGGA,120001.00,3540.87194,N,13946.02401,E,1,09,0.87,34.5,M,18.4,M,,")
        let next = NMEATest.sentence("GNGSA,A,3,12,,,,,,,,,,,,1.5,0.9,1.2")
        #expect(Self.sky(Self.gps + Self.glonass + first).satellites.filter(\.used).map(\.prn) == [1, 10, 66])
        #expect(Self.sky(Self.gps + Self.glonass + first + gga + next).satellites.filter(\.used).map(\.prn) == [12])
    }

    @Test func garbledTalkersCannotGrowTheLists() {
        // 200 GSVs of made-up talkers, each with a good checksum: at most 32 talker-and-signal lists are kept.
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let talkers = (0..<200).map { i in String([letters[(i / 26) % 26], letters[i % 26]]) }
        let text = talkers.map { NMEATest.sentence("\($0)GSV,1,1,01,05,10,20,30") + NMEATest.sentence("\($0)GSA,A,3,05,,,,,,,,,,,,1.5,0.9,1.2") }.joined()
        let sky = Self.sky(text)
        #expect(sky.satellitesVisible == NMEAInView.maximumEntries, "each kept list has one in view")
        #expect(sky.satellites.count <= NMEAInView.maximumEntries)
    }

    @Test func finishForgetsTheSatellites() {
        var parser = NMEAParser()
        Array((Self.gps + Self.used).utf8).withUnsafeBytes { parser.feed($0) { _ in } }
        #expect(!parser.sky.satellites.isEmpty)
        parser.finish { _ in }
        #expect(parser.sky.satellites.isEmpty, "another receiver may follow")
    }

    // MARK: gpsd's own output

    static let corpus = PackagePaths.gpsdCaptures + "/gpsd-corpus"

    /// gpsd's SKY satellites of a `.chk` file: `(PRN, gnssid, svid)` of every one listed.
    static func gpsdSatellites(_ file: String) throws -> [JSONValue] {
        let text = String(decoding: try FileIO.read(corpus + "/" + file + ".log.chk"), as: UTF8.self)
        var all: [JSONValue] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) where line.hasPrefix(#"{"class":"SKY""#) {
            let value = try JSONValue.parse(Array(line.utf8))
            all += value["satellites"]?.arrayValue ?? []
        }
        return all
    }

    @Test
    func theFirstGLONASSCycleOfANeoM8NIsTheSkyGPSDReports() throws {
        // neo-m8n.log opens with five comment lines and one GLGSV cycle of three sentences; gpsd's first SKY is it.
        // Split on the byte: as Characters, "\r\n" is one and "\n" would not split it.
        let bytes = try FileIO.read(Self.corpus + "/neo-m8n.log").split(separator: 10).prefix(8)
        let lines = bytes.map { String(decoding: $0, as: UTF8.self) + "\n" }.joined()
        let ours = Self.sky(lines).satellites
        let theirs = try Self.gpsdSatellites("neo-m8n").prefix(10)
        #expect(ours.count == 10)
        for (satellite, expected) in zip(ours, theirs) {
            #expect(satellite.prn == expected["PRN"]?.intValue)
            #expect(satellite.gnssID == expected["gnssid"]?.intValue && satellite.svID == expected["svid"]?.intValue)
            #expect(satellite.elevation == expected["el"]?.numberValue && satellite.azimuth == expected["az"]?.numberValue)
            #expect(satellite.snr == expected["ss"]?.numberValue, "gpsd leaves an untracked satellite's ss out")
            #expect(satellite.used == (expected["used"]?.boolValue ?? false))
        }
    }

    /// Every capture's last sky: each satellite listed is one gpsd's SKY of that file lists, with its numbering.
    @Test
    func everySatelliteOfTheCorpusIsNumberedAsGPSDNumbersIt() throws {
        let files = try FileIO.list(Self.corpus).filter { $0.hasSuffix(".log") }.map { String($0.dropLast(4)) }
        var compared = 0
        for file in files {
            let theirs = try Self.gpsdSatellites(file)
            guard !theirs.isEmpty else { continue }
            let known = Set(theirs.map { "\($0["PRN"]?.intValue ?? 0)/\($0["gnssid"]?.intValue ?? -1)/\($0["svid"]?.intValue ?? -1)" })
            let text = String(decoding: try FileIO.read(Self.corpus + "/" + file + ".log"), as: UTF8.self)
            for satellite in Self.sky(text).satellites {
                let key = "\(satellite.prn)/\(satellite.gnssID ?? -1)/\(satellite.svID ?? -1)"
                #expect(known.contains(key), "\(file): \(key) is in no SKY of gpsd's")
                compared += 1
            }
        }
        #expect(compared > 300, "satellites compared: \(compared)")
    }
}

