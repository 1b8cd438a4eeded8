import LocationCore
import Testing

@testable import LocationDaemon
import TestSupport

/// gpsd's SKY through the CGPS shim and `GPSDSource` (#15): the counts from
/// its satellite list and its DOPs, handed on as a `.sky` event beside the
/// fixes; a DOP a SKY leaves out is unknown, not the previous one's.
@Suite(.serialized) struct GPSDSkyTests {
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
        #expect(skies.first == SkyView(satellitesUsed: 2, satellitesVisible: 3, hdop: 0.87, pdop: 1.67, vdop: 1.42))
        #expect(skies.dropFirst().first == SkyView(hdop: 1.1, pdop: 2.2))
        // The empty SKY (read before the TPV that completed the fix) says nothing, and nothing is handed on.
        #expect(Self.skies(recorder.snapshot).count == 2, "\(recorder.snapshot)")
        // The first SKY's count of satellites used still goes into the fix, as before.
        #expect(recorder.fixes.first?.satellitesUsed == 2)
    }
}
