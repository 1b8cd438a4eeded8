import CGPS
import LocationCore
import LocationValues
import Testing
import TestSupport

/// The shim's copy of a SKY's satellites (#32 item 4): every SKY gpsd wrote
/// for its regression corpus comes through with each listed satellite, in
/// order, with its values, and nothing of a longer SKY before is left over.
@Suite(.timeLimit(.minutes(10))) struct CGPSSkyTests {
    /// The satellites the shim copied from `line`, and the report's count.
    static func satellites(_ line: String, _ session: OpaquePointer) -> [cgps_satellite] {
        var report = GPSDLogShimTests.live(line, session)
        guard report.kind == CGPS_REPORT_SKY else { return [] }
        let count = Int(report.satellite_count)
        return withUnsafeBytes(of: &report.satellites) { Array($0.bindMemory(to: cgps_satellite.self).prefix(count)) }
    }

    @Test
    func everySatelliteOfEverySKYInGPSDsCorpusIsCopied() throws {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        var compared = 0
        for sky in try GPSDCorpusOutput.lines(of: "SKY") {
            let (file, line) = (sky.file, sky.text)
            let expected = try JSONValue.parse(Array(line.utf8))["satellites"]?.arrayValue ?? []
            let copied = Self.satellites(line, session)
            #expect(copied.count == expected.count, "\(file): \(line)")
            for (satellite, want) in zip(copied, expected) {
                #expect(Int(satellite.prn) == want["PRN"]?.intValue, "\(file): \(line)")
                #expect(satellite.used == (want["used"]?.boolValue ?? false))
                if let el = want["el"]?.numberValue { #expect(satellite.elevation == el) }
                if let az = want["az"]?.numberValue { #expect(satellite.azimuth == az) }
                if let ss = want["ss"]?.numberValue { #expect(satellite.ss == ss) } else { #expect(satellite.ss.isNaN) }
                if let svid = want["svid"]?.intValue {
                    #expect(Int(satellite.svid) == svid && Int(satellite.gnssid) == want["gnssid"]?.intValue)
                }
                compared += 1
            }
        }
        #expect(compared > 10_000, "satellites compared: \(compared)")
    }

    @Test func aShorterSKYAfterALongerOneHasOnlyItsOwnSatellites() throws {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        let long = #"{"class":"SKY","satellites":[{"PRN":1,"el":1,"az":1,"ss":1,"used":true},{"PRN":2,"el":2,"az":2,"ss":2,"used":true},{"PRN":3,"el":3,"az":3,"ss":3,"used":false}]}"#
        let short = #"{"class":"SKY","satellites":[{"PRN":9,"el":9,"az":9,"ss":9,"used":false}]}"#
        #expect(Self.satellites(long, session).map(\.prn) == [1, 2, 3])
        #expect(Self.satellites(short, session).map(\.prn) == [9])
        let dopsOnly = #"{"class":"SKY","hdop":1.2}"#
        #expect(Self.satellites(dopsOnly, session).isEmpty, "a SKY with no list copies none")
    }
}
