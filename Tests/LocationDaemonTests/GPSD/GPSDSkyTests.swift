import LocationCore
import LocationValues
import Testing

@testable import LocationDaemon
import TestSupport

/// gpsd's SKY through the CGPS shim and `GPSDSource` (#15, #32): the counts
/// from its satellite list, its DOPs and each satellite, handed on as a
/// `.sky` event beside the fixes; a DOP a SKY leaves out is unknown, not the
/// previous one's; a satellite's absurd values are unknown, one without a PRN is skipped.
@Suite(.timeLimit(.minutes(10)), .serialized) struct GPSDSkyTests {
    static let fullSky =
        #"{"class":"SKY","device":"/dev/scripted","xdop":0.51,"ydop":0.62,"vdop":1.42,"tdop":0.9,"hdop":0.87,"gdop":2.1,"pdop":1.67,"satellites":[{"PRN":1,"el":40,"az":90,"ss":38,"used":true},{"PRN":10,"el":12,"az":200,"ss":30,"used":true},{"PRN":12,"el":5,"az":300,"ss":0,"used":false}]}"#
    /// A SKY with only two DOPs (and no list): no counts, no VDOP.
    static let dopsOnly = #"{"class":"SKY","device":"/dev/scripted","hdop":1.1,"pdop":2.2}"#
    /// Nothing known: no event at all.
    static let empty = #"{"class":"SKY","device":"/dev/scripted"}"#

    static func skies(_ events: [SourceEvent]) -> [SkyView] {
        events.compactMap { if case .sky(let view) = $0 { view } else { nil } }
    }

    @Test func skyReportsArriveAsSkyViewsBesideTheFixes() async throws {
        var script = ScriptedGPSDServer.Script()
        script.reports = [Self.fullSky, GPSDSourceRobustnessTests.tpv0, Self.dopsOnly, Self.empty, GPSDSourceRobustnessTests.tpv1]
        let server = try ScriptedGPSDServer(script: script)
        defer { server.shutDown() }
        let source = GPSDSource(host: "127.0.0.1", port: server.port, tuning: GPSDSourceRobustnessTests.fast())
        let recorder = SourceEventRecorder(source.start())
        defer { source.stop() }
        let both = await recorder.wait { Self.skies($0).count >= 2 && !$0.filter { if case .fix = $0 { true } else { false } }.isEmpty }
        #expect(both, "\(recorder.snapshot)")
        let skies = Self.skies(recorder.snapshot)
        let satellites = [
            Satellite(prn: 1, elevation: 40, azimuth: 90, snr: 38, used: true),
            Satellite(prn: 10, elevation: 12, azimuth: 200, snr: 30, used: true),
            Satellite(prn: 12, elevation: 5, azimuth: 300, snr: 0, used: false),
        ].compactMap { $0 }
        #expect(
            skies.first
                == SkyView(
                    satellitesUsed: 2, satellitesVisible: 3, hdop: 0.87, pdop: 1.67, vdop: 1.42, device: "/dev/scripted",
                    satellites: satellites))
        #expect(skies.dropFirst().first == SkyView(hdop: 1.1, pdop: 2.2, device: "/dev/scripted"))
        // The empty SKY (read before the TPV that completed the fix) says nothing, and nothing is handed on.
        #expect(Self.skies(recorder.snapshot).count == 2, "\(recorder.snapshot)")
        // The first SKY's count of satellites used still goes into the fix, as before.
        #expect(recorder.fixes.first?.satellitesUsed == 2)
    }

    /// gpsd's own shape (u-blox ids, time) and a garbled list: out-of-domain values unknown, no PRN skipped.
    static let idsAndGarbage =
        #"{"class":"SKY","device":"/dev/scripted","time":"2026-03-14T12:00:00.500Z","hdop":0.9,"satellites":[{"PRN":336,"gnssid":2,"svid":36,"az":149.0,"el":76.0,"ss":45.0,"used":true},{"el":10,"az":10,"ss":20,"used":true},{"PRN":7,"el":95,"az":400,"ss":-1,"used":false},{"PRN":75,"gnssid":6,"svid":11,"az":18.0,"el":4.0,"used":false}]}"#

    static let fewer = #"{"class":"SKY","device":"/dev/scripted","satellites":[{"PRN":3,"el":41,"az":50,"ss":46,"used":true}]}"#

    @Test func aSkysIdsAndTimeComeThroughAndAbsurdValuesAreUnknown() async throws {
        var script = ScriptedGPSDServer.Script()
        script.reports = [Self.idsAndGarbage, Self.fewer, GPSDSourceRobustnessTests.tpv0]
        let server = try ScriptedGPSDServer(script: script)
        defer { server.shutDown() }
        let source = GPSDSource(host: "127.0.0.1", port: server.port, tuning: GPSDSourceRobustnessTests.fast())
        let recorder = SourceEventRecorder(source.start())
        defer { source.stop() }
        #expect(await recorder.wait { !Self.skies($0).isEmpty }, "\(recorder.snapshot)")
        let sky = try #require(Self.skies(recorder.snapshot).first)
        #expect(sky.time == UTCTime.parse("2026-03-14T12:00:00.500Z"))
        #expect(sky.satellites.map(\.prn) == [336, 7, 75], "the entry without a PRN is skipped: \(sky.satellites)")
        let galileo = try #require(sky.satellites.first)
        #expect(galileo.gnssID == 2 && galileo.svID == 36 && galileo.elevation == 76 && galileo.azimuth == 149)
        #expect(galileo.snr == 45 && galileo.used)
        let garbled = sky.satellites[1]
        #expect(garbled.elevation == nil && garbled.azimuth == nil && garbled.snr == nil && garbled.gnssID == nil)
        #expect(sky.satellites[2].snr == nil && sky.satellites[2].gnssID == 6 && sky.satellites[2].svID == 11)
        #expect(await recorder.wait { Self.skies($0).count >= 2 }, "\(recorder.snapshot)")
        let next = try #require(Self.skies(recorder.snapshot).dropFirst().first)
        #expect(next.satellites.map(\.prn) == [3], "nothing left over from the longer SKY before: \(next.satellites)")
    }
}
