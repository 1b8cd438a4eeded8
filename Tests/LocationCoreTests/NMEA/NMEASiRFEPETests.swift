import Testing
import LocationCore

/// SiRF's `$PSRFEPE` (estimated position errors): with status `A` its EHPE and EVPE are the
/// epoch's error estimates, as gpsd takes them (docs/nmea.md §6), instead of the DOP model; the
/// sentence comes first in SiRF's cycle, with the epoch's time.
@Suite struct NMEASiRFEPETests {
    private func s(_ body: String) -> String { NMEATest.sentence(body) }

    /// One epoch of a SiRF receiver (beidou-bd.log's shape): PSRFEPE, GGA, GSA, RMC.
    private func epoch(_ time: String, epe: String, hdop: String = "1.1") -> String {
        s("PSRFEPE,\(time),\(epe)")
            + s("GNGGA,\(time),3114.8770,N,12135.2442,E,1,05,\(hdop),190.7,M,8.3,M,,0000")
            + s("GPGSA,A,3,05,07,12,15,25,,,,,,,,1.9,\(hdop),1.5")
            + s("GNRMC,\(time),A,3114.8770,N,12135.2442,E,0.26,4.94,250215,6.1,W,A")
    }

    @Test func theReceiversEstimatesWinOverTheDOPModelForTheirEpoch() throws {
        let result = NMEATest.parse(
            epoch("074156.799", epe: "A,1.1,64.94,58.97,0.2,180.0") + epoch("074157.799", epe: "A,1.1,24.65,25.14,0.1,61.5"))
        try #require(result.fixes.count == 2)
        #expect(result.fixes.map(\.horizontalError) == [64.94, 24.65])
        #expect(result.fixes.map(\.verticalError) == [58.97, 25.14])
        #expect(result.fixes.allSatisfy { $0.mode == .threeD && $0.isUsable })
        #expect(result.fixes.map(NMEATest.timeOfDay) == ["07:41:56.799", "07:41:57.799"])
        #expect(result.statistics.ignored == 0 && result.statistics.malformed == 0)
    }

    @Test func anEpochWithoutOneKeepsTheModelAndNothingCarriesOver() throws {
        let result = NMEATest.parse(
            epoch("074156.799", epe: "A,1.1,64.94,58.97,0.2,180.0")
                + s("GNGGA,074157.799,3114.8770,N,12135.2442,E,1,05,1.1,190.7,M,8.3,M,,0000")
                + s("GPGSA,A,3,05,07,12,15,25,,,,,,,,1.9,1.1,1.5")
                + s("GNRMC,074157.799,A,3114.8770,N,12135.2442,E,0.26,4.94,250215,6.1,W,A"))
        try #require(result.fixes.count == 2)
        #expect(result.fixes[1].horizontalError == 1.1 * 19)
        #expect(result.fixes[1].verticalError == 1.5 * 23)
    }

    @Test(arguments: [
        "V,,,,,",  // not valid: the receiver says so
        "A,1.1,0.00,-3,0.2,180.0",  // out of the domain: no estimate of 0 m, or less
        "A,1.1,x,,0.2,180.0",  // unreadable, and empty
    ])
    func anInvalidOrOutOfDomainEstimateIsLeftOutAndTheModelStands(_ epe: String) throws {
        let result = NMEATest.parse(epoch("074156.799", epe: epe, hdop: "1.3"))
        let fix = try #require(result.fixes.first)
        #expect(fix.mode == .threeD && fix.isUsable, "the standard sentences still make the fix")
        #expect(fix.horizontalError == 1.3 * 19)
        #expect(fix.verticalError == 1.5 * 23)
    }

    @Test func aTruncatedOneIsMalformed() {
        let result = NMEATest.parse(s("PSRFEPE,074156.799,A,1.1,64.94"))
        #expect(result.statistics.malformed == 1)
    }
}
