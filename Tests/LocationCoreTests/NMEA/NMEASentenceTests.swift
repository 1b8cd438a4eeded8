import Testing
import LocationCore
import LocationValues

/// What each sentence type contributes to a fix, from any talker.
@Suite struct NMEASentenceTests {
    private func s(_ body: String) -> String { NMEATest.sentence(body) }
    /// An RMC that only supplies the date, one epoch earlier.
    private let dated = NMEATest.sentence("GPRMC,115959.00,A,4807.038,N,01131.324,E,0.0,,140326,,,A")

    private func only(_ text: String) -> Fix? {
        let fixes = NMEATest.parse(dated + text).fixes
        return fixes.count == 2 ? fixes[1] : nil
    }

    @Test func ggaGivesPositionAltitudeSatellitesAndGpsdsErrorEstimate() throws {
        let fix = try #require(only(s("GPGGA,120000.00,4807.038,N,01131.324,W,1,08,0.9,545.4,M,46.9,M,,")))
        #expect(fix.mode == .threeD)  // an altitude and at least four satellites
        let latitude: Double = (2887.0 + 0.038) * (1.0 / 60.0)
        let longitude: Double = -(691.0 + 0.324) * (1.0 / 60.0)
        #expect(fix.latitude == latitude)  // gpsd's arithmetic, to the last bit
        #expect(fix.longitude == longitude)
        #expect(fix.altitude == 545.4)
        #expect(fix.satellitesUsed == 8)
        #expect(fix.horizontalError == 0.9 * 19)
        #expect(fix.time == UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 12, minute: 0, second: 0))
    }

    @Test func ggaDifferentialFixUsesTheSmallerUERE() throws {
        let fix = try #require(only(s("GPGGA,120000.00,4807.038,S,01131.324,E,2,08,0.9,545.4,M,46.9,M,,")))
        #expect(fix.latitude < 0)
        #expect(fix.horizontalError == 0.9 * 4.75)
    }

    @Test func ggaModeFollowsGpsdsSatelliteRule() throws {
        let two = try #require(only(s("GPGGA,120000.00,4807.038,N,01131.324,E,1,03,1.9,545.4,M,46.9,M,,")))
        #expect(two.mode == .twoD)
        let noAltitude = try #require(only(s("GPGGA,120000.00,4807.038,N,01131.324,E,1,08,1.9,,M,,M,,")))
        #expect(noAltitude.mode == .twoD)
        #expect(noAltitude.altitude == nil)
        // Fewer than three satellites cannot make a fix, whatever the quality says.
        let tooFew = try #require(only(s("GPGGA,120000.00,4807.038,N,01131.324,E,1,02,1.9,545.4,M,46.9,M,,")))
        #expect(tooFew.mode == .noFix)
    }

    @Test(arguments: ["0", "", "7", "8"])
    func ggaWithoutAMeasuredFixIsNoFix(_ quality: String) throws {
        let fix = try #require(only(s("GPGGA,120000.00,4807.038,N,01131.324,E,\(quality),08,0.9,545.4,M,46.9,M,,")))
        #expect(fix.mode == .noFix)
        #expect(fix.latitude.isNaN)
        #expect(fix.horizontalError == nil)
        #expect(!fix.isUsable)
    }

    @Test func rmcAloneIs2DWithSpeedCourseAndDate() throws {
        let result = NMEATest.parse(s("GPRMC,225446.33,A,4916.45,N,12311.12,W,000.5,054.7,191125,020.3,E,A"))
        let fix = try #require(result.fixes.first)
        #expect(fix.mode == .twoD)
        #expect(fix.speed == 0.5 * 1852 / 3600)
        #expect(fix.course == 54.7)
        #expect(fix.horizontalError == nil)  // no DOP seen yet
        #expect(fix.time == UTCTime.seconds(year: 2025, month: 11, day: 19, hour: 22, minute: 54, second: 46.33))
    }

    @Test(arguments: [
        "GPRMC,120000.00,V,4807.038,N,01131.324,E,,,140326,,,N",
        "GPRMC,120000.00,A,4807.038,N,01131.324,E,,,140326,,,N",
        "GPRMC,120000.00,,4807.038,N,01131.324,E,,,140326,,,",
    ])
    func rmcSayingInvalidIsNoFix(_ body: String) throws {
        let fix = try #require(only(s(body)))
        #expect(fix.mode == .noFix)
    }

    @Test func gllGivesAPositionOnlyWhenActive() throws {
        let fix = try #require(only(s("GPGLL,4916.45,N,12311.12,W,120000.00,A,A")))
        #expect(fix.mode == .twoD)
        #expect(abs(fix.longitude + (123 + 11.12 / 60)) < 1e-12)
        let void = try #require(only(s("GPGLL,4916.45,N,12311.12,W,120000.00,V,N")))
        #expect(void.mode == .noFix)
        let notValid = try #require(only(s("GPGLL,4916.45,N,12311.12,W,120000.00,A,N")))
        #expect(notValid.mode == .noFix)
    }

    @Test func gnsUsesAnyConstellationsFix() throws {
        let fix = try #require(only(s("GNGNS,120000.00,3645.861835,N,03124.651134,E,NA,09,1.2,-2.3,32.0,,,V")))
        #expect(fix.mode == .threeD)
        #expect(fix.altitude == -2.3)
        #expect(fix.satellitesUsed == 9)
        #expect(fix.horizontalError == 1.2 * 19)
        let none = try #require(only(s("GNGNS,120000.00,,,,,NNN,,,,,,")))
        #expect(none.mode == .noFix)
    }

    @Test func gsaModeIsTheReceiversOwnWord() throws {
        let gga = s("GPGGA,120000.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,")
        // The receiver says 2D: believe it, although GGA has an altitude (gpsd says 3D).
        let twoD = try #require(only(gga + s("GPGSA,A,2,05,07,12,,,,,,,,,,34.7,21.1,27.6")))
        #expect(twoD.mode == .twoD)
        #expect(twoD.altitude == nil)  // a 2D fix has no measured altitude
        // eph from the HDOP at the epoch's first position (GGA's 0.9), as gpsd computes it.
        #expect(twoD.horizontalError == 0.9 * 19)
        #expect(twoD.verticalError == nil)
        let threeD = try #require(only(gga + s("GPGSA,A,3,05,07,12,30,,,,,,,,,1.5,0.9,1.2")))
        #expect(threeD.verticalError == 1.2 * 23)
        let none = try #require(only(gga + s("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99")))
        #expect(none.mode == .noFix)
    }

    @Test func severalGsasPerEpochAccumulate() throws {
        let fix = try #require(only(
            s("GNGGA,120000.00,4807.038,N,01131.324,E,1,12,0.54,83.1,M,-29.5,M,,")
                + s("GNGSA,A,3,29,20,18,16,51,13,44,26,,,,,0.99,0.54,0.83,1")
                + s("GNGSA,A,3,82,73,74,67,81,83,68,,,,,,0.99,0.54,0.83,2")
                + s("GNGSA,A,3,,,,,,,,,,,,,0.99,0.54,0.83,3")))
        #expect(fix.mode == .threeD)
        // The sum over the GSAs (8 + 7), not GGA's 12 (many receivers cap it at 12).
        #expect(fix.satellitesUsed == 15)
        #expect(fix.horizontalError == 0.54 * 19)
    }

    @Test func vtgGivesSpeedAndCourse() throws {
        let fix = try #require(only(
            s("GPGGA,120000.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,")
                + s("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A")))
        #expect(fix.speed == 5.5 * 1852 / 3600)
        #expect(fix.course == 54.7)
        let invalid = try #require(only(
            s("GPGGA,120000.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,")
                + s("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,N")))
        #expect(invalid.speed == nil)
    }

    @Test func zdaDatesAGgaOnlyReceiver() throws {
        let result = NMEATest.parse(
            s("GPGGA,235959.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,")
                + s("GPZDA,235959.00,31,12,2025,00,00")
                + s("GPGGA,000000.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,"))
        #expect(result.fixes.map(\.time) == [
            UTCTime.seconds(year: 2025, month: 12, day: 31, hour: 23, minute: 59, second: 59),
            UTCTime.seconds(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0),
        ])
    }

    @Test func gstIsReadButDoesNotChangeTheEstimate() throws {
        // gpsd 3.22 derives eph from HDOP only; GST feeds its separate GST report.
        let fix = try #require(only(
            s("GPGGA,120000.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,")
                + s("GPGST,120000.00,3.5,1.98,1.32,157.6,1.65,1.49,2.64")))
        #expect(fix.horizontalError == 0.9 * 19)
        #expect(NMEATest.parse(dated + s("GPGST,120000.00,3.5,1.98,1.32,157.6,1.65,1.49,2.64")).statistics.ignored == 0)
    }

    @Test(arguments: ["GP", "GN", "GL", "GA", "GB", "BD", "QZ"])
    func everyGnssTalkerIsRead(_ talker: String) {
        let result = NMEATest.parse(NMEATest.epoch("093000.00", talker: talker) + NMEATest.epoch("093001.00", talker: talker))
        #expect(result.fixes.count == 2)
        #expect(result.fixes.allSatisfy { $0.mode == .threeD && $0.isUsable })
        #expect(result.statistics.ignored == 0)
    }

    @Test(arguments: [
        "GPGGA,120000.00,4807.038,N,01131.324,E,1,08",
        "GPRMC,120000.00,A,4807.038,N,01131.324",
        "GPGSA,A,3,05,07,12",
    ])
    func tooShortSentencesAreMalformed(_ body: String) {
        let result = NMEATest.parse(dated + s(body))
        #expect(result.statistics.malformed == 1)
    }

    @Test func badFieldsLoseOnlyThatValue() throws {
        let fix = try #require(only(
            s("GPGGA,120000.00,48x7.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,")
                + s("GPRMC,120000.00,A,4807.038,N,01131.324,E,0.0,,140326,,,A")))
        #expect(fix.mode == .twoD)  // the GGA's position was unreadable; RMC's is used
        #expect(abs(fix.latitude - 48.1173) < 1e-12)
        let outOfRange = try #require(only(s("GPGGA,120000.00,9107.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,")))
        #expect(outOfRange.mode == .noFix)
    }
}
