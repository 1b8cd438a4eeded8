import Testing
@testable import LocationCore
@testable import LocationValues

/// Dates, satellites and value domains as issue #8 asks (docs/nmea.md §2, §4).
@Suite struct NMEAFidelityTests {
    typealias N = NMEATest

    static func day(_ fix: Fix?) -> String {
        String(UTCTime.format(fix?.time ?? 0, fractionDigits: 3).prefix(10))
    }

    @Test(arguments: [("140380", "1980-03-14"), ("140399", "1999-03-14"), ("140300", "2000-03-14"),
                      ("140326", "2026-03-14"), ("140379", "2079-03-14")])
    func twoDigitYearsPivotOnTheStartOfGPSTime(_ ddmmyy: String, _ expected: String) {
        let fixes = N.parse(N.epoch("120000", date: ddmmyy) + N.epoch("120001", date: ddmmyy)).fixes
        #expect(Self.day(fixes.first) == expected)
    }

    @Test func aZDAFourDigitYearWinsOverRMC() {
        // RMC says 99 (1999, a week-rollover receiver); ZDA in the same epoch says 2019.
        let zda = N.sentence("GPZDA,120000.00,14,03,2019,00,00")
        let text = N.epoch("120000", date: "140399") + zda + N.epoch("120001", date: "140399") + zda
        let fixes = N.parse(text).fixes
        #expect(Self.day(fixes.first) == "2019-03-14")
        // Before and after RMC alike.
        let before = N.parse(zda + N.epoch("120000", date: "140399") + N.epoch("120001")).fixes
        #expect(Self.day(before.first) == "2019-03-14")
    }

    @Test func aLeapSecondIsTheLastMomentOfItsDay() throws {
        let text = N.epoch("235959", date: "311216") + N.epoch("235960", date: "311216")
            + N.epoch("000000", date: "010117") + N.epoch("000001", date: "010117")
        let fixes = N.parse(text).fixes
        try #require(fixes.count == 4)
        let times = fixes.compactMap(\.time)
        #expect(times == times.sorted())
        #expect(Set(times).count == 4, "the leap second is an epoch of its own")
        #expect(UTCTime.format(times[1], fractionDigits: 3) == "2016-12-31T23:59:59.999Z")
        #expect(Self.day(fixes[2]) == "2017-01-01")
        // Second 60 anywhere else is malformed.
        #expect(N.parse(N.epoch("120060") + N.epoch("120101")).fixes.count == 1)
    }

    /// A GN receiver's epoch at `time`: GGA capped at 12 satellites, one GSA per constellation (9 + 4 + 3).
    static func gnss(_ time: String) -> String {
        N.sentence("GNGGA,\(time).00,3540.87194,N,13946.02401,E,1,12,0.87,34.5,M,18.4,M,,")
            + N.sentence("GNGSA,A,3,01,10,12,15,25,26,27,28,31,,,,1.67,0.87,1.42,1")
            + N.sentence("GNGSA,A,3,65,66,67,68,,,,,,,,,1.67,0.87,1.42,2")
            + N.sentence("GNGSA,A,3,301,302,303,,,,,,,,,,1.67,0.87,1.42,3")
            + N.sentence("GNRMC,\(time).00,A,3540.87194,N,13946.02401,E,2.304,157.60,140326,,,A")
    }

    @Test func satellitesUsedAreSummedOverTheEpochsGSAs() throws {
        let fixes = N.parse(Self.gnss("120000") + Self.gnss("120001")).fixes
        #expect(fixes.count == 2)
        #expect(try #require(fixes.first).satellitesUsed == 16)
    }

    @Test func anHDOPLeftFromANoFixCycleIsNotTheFirstFixsEstimate() throws {
        // Acquiring: GSA says no fix with HDOP 99.99; the first fix's GGA and GSA carry no HDOP.
        let acquiring = N.sentence("GPGGA,120000.00,,,,,0,00,99.99,,M,,M,,")
            + N.sentence("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99")
            + N.sentence("GPRMC,120000.00,V,,,,,,,140326,,,N")
        let first = N.sentence("GPGGA,120001.00,3540.87194,N,13946.02401,E,1,09,,34.5,M,18.4,M,,")
            + N.sentence("GPGSA,A,3,01,10,12,15,25,26,27,28,31,,,,,,")
            + N.sentence("GPRMC,120001.00,A,3540.87194,N,13946.02401,E,2.304,157.60,140326,,,A")
        let fixes = N.parse(N.epoch("115959") + acquiring + first + N.epoch("120002")).fixes
        let fix = try #require(fixes.first { $0.time.map { UTCTime.format($0).contains("12:00:01") } == true })
        #expect(fix.isUsable)
        #expect(fix.horizontalError == nil)
    }

    /// #29: receivers write DOP 0.00 for "not computed" beside a valid position: a fix with the estimate unknown.
    @Test(arguments: ["0.0", "0", "0.00"])
    func anHDOPOfZeroIsAFixWithTheEstimateUnknown(_ hdop: String) throws {
        let fixes = N.parse(N.epoch("120000", hdop: hdop) + N.epoch("120001")).fixes
        let fix = try #require(fixes.first)
        #expect(fix.isUsable, "HDOP \(hdop)")
        #expect(fix.horizontalError == nil)
    }

    @Test(arguments: ["-1.2", "1e999", "abc"])
    func anHDOPOutOfItsDomainMakesTheEpochNoFix(_ hdop: String) {
        let fixes = N.parse(N.epoch("120000", hdop: hdop) + N.epoch("120001")).fixes
        #expect(fixes.first?.isUsable == false, "HDOP \(hdop)")
        #expect(fixes.last?.isUsable == true)
    }

    @Test(arguments: [("X", "E"), ("N", "Q"), ("n", "E"), ("NS", "E")])
    func hemisphereLettersOtherThanNSEWAreRejected(_ ns: String, _ ew: String) {
        let fixes = N.parse(N.epoch("120000", ns: ns, ew: ew) + N.epoch("120001")).fixes
        #expect(fixes.first?.isUsable == false)
    }

    @Test func latitudeAndLongitudeOutOfRangeGiveNoPosition() {
        #expect(N.parse(N.epoch("120000", lat: "9100.00000") + N.epoch("120001")).fixes.first?.isUsable == false)
        #expect(N.parse(N.epoch("120000", lon: "18100.00000") + N.epoch("120001")).fixes.first?.isUsable == false)
    }

    @Test func aNegativeSpeedAndACourseOutsideTheCircleAreLeftOut() throws {
        let text = N.sentence("GPGGA,120000.00,3540.87194,N,13946.02401,E,1,09,0.87,34.5,M,18.4,M,,")
            + N.sentence("GPRMC,120000.00,A,3540.87194,N,13946.02401,E,-2.304,360.0,140326,,,A")
        let fixes = N.parse(text + N.epoch("120001")).fixes
        let fix = try #require(fixes.first)
        #expect(fix.isUsable)
        #expect(fix.speed == nil)
        #expect(fix.course == nil)
    }

    @Test func theEngineRefusesFixesWithValuesOutOfTheirDomain() {
        let good = Fix(time: 1, mode: .threeD, latitude: 1, longitude: 2, horizontalError: 5, speed: 1, course: 359.9)
        #expect(good.isUsable)
        let broken: [Fix] = [
            { var f = good; f.horizontalError = 0; return f }(), { var f = good; f.horizontalError = .nan; return f }(),
            { var f = good; f.horizontalError = -3; return f }(), { var f = good; f.speed = -1; return f }(),
            { var f = good; f.course = 360; return f }(), { var f = good; f.course = -0.1; return f }(),
            { var f = good; f.verticalError = .infinity; return f }(),
        ]
        for fix in broken {
            #expect(!fix.isUsable, "\(fix)")
        }
    }
}

