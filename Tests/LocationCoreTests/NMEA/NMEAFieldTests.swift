import Testing
@testable import LocationCodecs
@testable import LocationCore
@testable import LocationValues

/// Field splitting and the number parsers, which must reproduce gpsd's
/// arithmetic to far better than 1e-7°.
@Suite struct NMEAFieldTests {
    private func withField<T>(_ text: String, _ body: (NMEAField) -> T) -> T {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { body(NMEAField(base: $0.baseAddress, count: $0.count)) }
    }

    private func withFields<T>(_ text: String, _ body: (NMEAFields) -> T) -> T {
        let bytes = Array(text.utf8)
        var bounds = [UInt8](repeating: 0, count: 2 * NMEAFields.capacity)
        return bytes.withUnsafeBufferPointer { text in
            bounds.withUnsafeMutableBufferPointer { body(NMEAFields(text: text, bounds: $0)) }
        }
    }

    @Test func splitsFieldsAndCountsAsGpsdDoes() {
        withFields("$GPGSA,A,3,,07*1E") { f in
            #expect(f.pieces == 5)
            #expect(f.count == 5)  // with '*': every field counts, the tag included
            #expect(f[0].equals("GPGSA"))
            #expect(f[1].equals("A"))
            #expect(f[3].isEmpty)
            #expect(f[4].equals("07"))
            #expect(f[5].isEmpty)
            #expect(f[99].isEmpty)
        }
        withFields("$GPGSA,A,3,,07") { f in
            #expect(f.count == 4)  // without '*': one less, as gpsd's field count
            #expect(f[4].equals("07"))
        }
    }

    @Test func fieldsStopAtTheFirstStar() {
        withFields("$GPGSA,A,1,,*1E0,*4E") { f in
            #expect(f.pieces == 5)
            #expect(f[4].isEmpty)
            #expect(f[5].isEmpty)
        }
    }

    static let degreeCases: [(String, Double)] = [
        ("4807.038", 48.0 + 7.038 / 60.0),
        ("01131.324", 11.0 + 31.324 / 60.0),
        ("0000.0000", 0.0),
        ("17959.99999", 179.0 + 59.99999 / 60.0),
        ("8959.9999999", 89.0 + 59.9999999 / 60.0),
        ("3540.87194", 35.0 + 40.87194 / 60.0),
        ("4807.", 48.0 + 7.0 / 60.0),
        (".5", 0.5 / 60.0),
    ]

    @Test(arguments: degreeCases)
    func readsDegreesAndMinutes(_ text: String, _ degrees: Double) {
        let value = withField(text) { $0.degreesMinutes() }
        #expect(value != nil)
        #expect(abs((value ?? .nan) - degrees) < 1e-12)
    }

    @Test(arguments: ["4807", "48x7.038", "4860.000", "", "48.07.1", "-4807.038", "4807.03a"])
    func refusesMalformedDegreesAndMinutes(_ text: String) {
        #expect(withField(text) { $0.degreesMinutes() } == nil)
    }

    static let timeCases: [(String, Int64)] = [
        ("123519", 45_319_000_000_000),
        ("123519.5", 45_319_500_000_000),
        ("000416.984", 256_984_000_000),
        ("235960.00", 86_399_999_000_000),  // a leap second: the last millisecond of its day
        ("235959.123456789", 86_399_123_456_789),
        ("101010.", 36_610_000_000_000),
    ]

    @Test(arguments: timeCases)
    func readsTimeOfDay(_ text: String, _ nanoseconds: Int64) {
        #expect(withField(text) { $0.timeOfDay() } == nanoseconds)
    }

    @Test(arguments: ["", "12351", "2a3519", "243519", "126019", "123561", "123519,5", "123519.5x"])
    func refusesMalformedTimeOfDay(_ text: String) {
        #expect(withField(text) { $0.timeOfDay() } == nil)
    }

    static let dateCases: [(String, Int)] = [
        ("140326", UTCTime.days(year: 2026, month: 3, day: 14)),
        ("311299", UTCTime.days(year: 1999, month: 12, day: 31)),
        ("010180", UTCTime.days(year: 1980, month: 1, day: 1)),
        ("291279", UTCTime.days(year: 2079, month: 12, day: 29)),
        ("290224", UTCTime.days(year: 2024, month: 2, day: 29)),
    ]

    @Test(arguments: dateCases)
    func readsDatesWithGpsdsCenturyRule(_ text: String, _ days: Int) {
        #expect(withField(text) { $0.dayMonthYear() } == days)
    }

    @Test(arguments: ["290225", "320126", "001225", "151325", "1403261", "14032", "-10326"])
    func refusesImpossibleDates(_ text: String) {
        #expect(withField(text) { $0.dayMonthYear() } == nil)
    }

    static let decimalCases: [(String, Double)] = [
        ("0.87", 0.87), ("-29.5", -29.5), ("00459.9", 459.9), ("+3", 3.0), (".5", 0.5),
        ("12.", 12.0), ("99.99", 99.99), ("0.000001", 0.000001),
    ]

    @Test(arguments: decimalCases)
    func readsDecimals(_ text: String, _ value: Double) {
        #expect(withField(text) { $0.decimal() } == value)
    }

    @Test(arguments: ["", "-", ".", "1e3", "1.2.3", "12a", " 1"])
    func refusesMalformedDecimals(_ text: String) {
        #expect(withField(text) { $0.decimal() } == nil)
    }

    @Test func readsSmallIntegersOnly() {
        #expect(withField("08") { $0.integer() } == 8)
        #expect(withField("") { $0.integer() } == nil)
        #expect(withField("-1") { $0.integer() } == nil)
        #expect(withField("1234567890") { $0.integer() } == nil)
    }

    @Test func errorModelUsesGpsdsUEREs() {
        #expect(NMEAErrorModel.horizontalError(hdop: 2.0, differential: false) == 38.0)
        #expect(NMEAErrorModel.horizontalError(hdop: 0.54, differential: true) == 0.54 * 4.75)
        #expect(NMEAErrorModel.verticalError(vdop: 3.25, differential: false) == 74.75)
        #expect(NMEAErrorModel.verticalError(vdop: 1.0, differential: true) == 5.75)
        #expect(NMEAErrorModel.horizontalError(hdop: 0, differential: false) == nil)
        #expect(NMEAErrorModel.horizontalError(hdop: nil, differential: false) == nil)
    }

    @Test func nearestDayCarriesTheDateOverMidnight() {
        let second: Int64 = 1_000_000_000
        let reference = NMEADateReference(day: 100, timeOfDay: 86_399 * second)
        #expect(reference.day(for: 0) == 101)
        #expect(reference.day(for: 86_398 * second) == 100)
        #expect(reference.day(for: 50_000 * second) == 100)
        let morning = NMEADateReference(day: 100, timeOfDay: 5 * second)
        #expect(morning.day(for: 86_395 * second) == 99)
        #expect(morning.day(for: 40_000 * second) == 100)
    }
}
