import Testing
@testable import LocationCore
@testable import LocationValues

/// The `SKY` programs of a full-accuracy client get (#32 item 4): gpsd's shape, which
/// libgps and the python `gps` module read, unknown values left out.
@Suite struct GPSDSkyReplyTests {
    /// Its `device` names the receiver as the `TPV`s do; an unnamed receiver's is the client's `locationd:NAME`.
    @Test func aSkyIsWrittenAsGPSDWritesIt() throws {
        let satellites = [
            Satellite(prn: 3, gnssID: 0, svID: 3, elevation: 41, azimuth: 50, snr: 46, used: true),
            Satellite(prn: 75, elevation: 4, azimuth: nil, snr: nil, used: false),
        ].compactMap { $0 }
        let view = SkyView(
            satellitesUsed: 1, satellitesVisible: 2, hdop: 0.9, pdop: 1.83, device: "/dev/ttyACM0",
            time: 1_773_480_601.5, satellites: satellites)
        let line = String(decoding: GPSDReply.sky(view, client: "qgis"), as: UTF8.self)
        #expect(
            line
                == #"{"class":"SKY","device":"/dev/ttyACM0","time":"2026-03-14T09:30:01.500Z","hdop":0.90,"pdop":1.83,"nSat":2,"uSat":1,"satellites":[{"PRN":3,"gnssid":0,"svid":3,"el":41.0,"az":50.0,"ss":46.0,"used":true},{"PRN":75,"el":4.0,"used":false}]}"#
                + "\r\n")
        let parsed = try JSONValue.parse(Array(line.utf8))
        #expect(parsed["satellites"]?.arrayValue?.count == 2)
    }

    @Test func withoutCountsTheListCountsAndAnEmptyViewIsAnEmptyList() {
        let satellite = Satellite(prn: 5, elevation: 10, azimuth: 20, snr: 30, used: true)
        let counted = String(decoding: GPSDReply.sky(SkyView(satellites: [satellite].compactMap { $0 }), client: "a"), as: UTF8.self)
        #expect(counted.contains(#""nSat":1,"uSat":1,"#), "\(counted)")
        let empty = String(decoding: GPSDReply.sky(SkyView(hdop: 2), client: "a"), as: UTF8.self)
        #expect(empty == #"{"class":"SKY","device":"locationd:a","hdop":2.00,"nSat":0,"uSat":0,"satellites":[]}"# + "\r\n")
    }

    /// `?POLL` repeats the last sky view the program got, as the `SKY` it was sent, beside its last fix.
    @Test func aPollCarriesTheLastSkyAsItsSKYWasWritten() throws {
        let satellite = Satellite(prn: 5, elevation: 10, azimuth: 20, snr: 30, used: true)
        let view = SkyView(hdop: 1.2, device: "/dev/ttyUSB0", satellites: [satellite].compactMap { $0 })
        let poll = try JSONValue.parse(GPSDReply.poll(client: "a", last: nil, sky: view, time: 1_773_480_700).dropLast(2))
        let sky = try #require(poll["sky"]?.arrayValue)
        #expect(sky.count == 1 && poll["tpv"]?.arrayValue?.isEmpty == true)
        #expect(sky.first == (try JSONValue.parse(GPSDReply.sky(view, client: "a").dropLast(2))))
    }
}
