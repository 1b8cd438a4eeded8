import LocationCore
import Testing

/// A value no receiver can mean is unknown (#9's mutated-NMEA case found them logged).
@Suite struct FixTests {
    @Test func impossibleValuesAreUnknownWhicheverSourceSentThem() {
        let fix = Fix(
            time: 1, mode: .threeD, latitude: 35, longitude: 139, altitude: .infinity, horizontalError: -1, verticalError: .nan,
            speed: -0.514, course: 20425, satellitesUsed: 999_999)
        #expect(fix.altitude == nil && fix.horizontalError == nil && fix.verticalError == nil)
        #expect(fix.speed == nil && fix.course == nil && fix.satellitesUsed == nil)
        #expect(Fix(time: 1, mode: .twoD, latitude: 0, longitude: 0, course: -1).course == nil)
    }

    @Test func possibleValuesAreKeptAndThreeSixtyIsNorth() {
        let fix = Fix(
            time: 1, mode: .threeD, latitude: 35, longitude: 139, altitude: -18.7, horizontalError: 0, verticalError: 3,
            speed: 0, course: 359.99, satellitesUsed: 0)
        #expect(fix.altitude == -18.7 && fix.horizontalError == 0 && fix.verticalError == 3)
        #expect(fix.speed == 0 && fix.course == 359.99 && fix.satellitesUsed == 0)
        #expect(Fix(time: 1, mode: .twoD, latitude: 0, longitude: 0, course: 360).course == 0)
    }
}
