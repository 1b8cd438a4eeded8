import Testing

@testable import LocationCodecs
@testable import LocationCore
@testable import LocationValues

/// gpsd's DOPs-only SKYs between its satellite lists (#32 item 4): the
/// receiver's list stands with the new DOPs, for a few seconds of receiver
/// time, per receiver.
@Suite struct GPSDSkyViewsTests {
    static let satellite = Satellite(prn: 3, elevation: 41, azimuth: 50, snr: 46, used: true)

    static func listed(_ device: String, at time: Double) -> SkyView {
        SkyView(
            satellitesUsed: 1, satellitesVisible: 1, hdop: 0.9, pdop: 1.8, vdop: 1.5, device: device, time: time,
            satellites: [satellite].compactMap { $0 })
    }

    @Test func aDOPsOnlySKYKeepsTheListWithItsOwnDOPs() {
        var views = GPSDSkyViews()
        let list = Self.listed("/dev/a", at: 100)
        #expect(views.take(list) == list)
        let merged = views.take(SkyView(hdop: 2.0, device: "/dev/a", time: 101))
        #expect(merged.satellites == list.satellites && merged.satellitesUsed == 1 && merged.satellitesVisible == 1)
        #expect(merged.hdop == 2.0 && merged.pdop == nil && merged.vdop == nil, "a DOP the SKY leaves out is unknown")
        #expect(merged.time == 101)
    }

    @Test func anotherReceiversOrAStaleOrUntimedListIsNotMerged() {
        var views = GPSDSkyViews()
        _ = views.take(Self.listed("/dev/a", at: 100))
        let other = SkyView(hdop: 2.0, device: "/dev/b", time: 101)
        #expect(views.take(other) == other)
        let late = SkyView(hdop: 2.0, device: "/dev/a", time: 100 + GPSDSkyViews.staleAfter + 1)
        #expect(views.take(late) == late)
        let untimed = SkyView(hdop: 2.0, device: "/dev/a")
        #expect(views.take(untimed) == untimed)
        let earlier = SkyView(hdop: 2.0, device: "/dev/a", time: 99)
        #expect(views.take(earlier) == earlier, "a clock that went back")
    }
}
