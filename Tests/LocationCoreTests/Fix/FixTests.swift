import LocationCore
import LocationValues
import Testing

/// A value no receiver can mean never reaches a log (#9's mutated-NMEA case found them
/// logged): not finite is unknown; finite but out of its domain makes the fix unusable
/// (#8: never an "unknown" estimate that then passes the accuracy gate).
@Suite struct FixTests {
    @Test func valuesThatAreNotFiniteAreUnknown() {
        let fix = Fix(
            time: 1, mode: .threeD, latitude: 35, longitude: 139, altitude: .infinity, horizontalError: .nan,
            verticalError: .nan, speed: .infinity, course: .nan, satellitesUsed: 999_999)
        #expect(fix.altitude == nil && fix.horizontalError == nil && fix.verticalError == nil)
        #expect(fix.speed == nil && fix.course == nil && fix.satellitesUsed == nil)
        #expect(fix.isUsable)
    }

    @Test(arguments: [
        Fix(time: 1, mode: .threeD, latitude: 35, longitude: 139, horizontalError: -1),
        Fix(time: 1, mode: .threeD, latitude: 35, longitude: 139, horizontalError: 0),
        Fix(time: 1, mode: .threeD, latitude: 35, longitude: 139, verticalError: -3),
        Fix(time: 1, mode: .threeD, latitude: 35, longitude: 139, speed: -0.514),
        Fix(time: 1, mode: .threeD, latitude: 35, longitude: 139, course: 20425),
        Fix(time: 1, mode: .twoD, latitude: 0, longitude: 0, course: -1),
    ])
    func aFiniteValueOutOfItsDomainMakesTheFixUnusableNotUnknown(_ fix: Fix) {
        #expect(!fix.isUsable)
        #expect(fix.horizontalError != nil || fix.verticalError != nil || fix.speed != nil || fix.course != nil)
    }

    @Test func possibleValuesAreKeptAndThreeSixtyIsNorth() {
        let fix = Fix(
            time: 1, mode: .threeD, latitude: 35, longitude: 139, altitude: -18.7, horizontalError: 0.5, verticalError: 3,
            speed: 0, course: 359.99, satellitesUsed: 0)
        #expect(fix.altitude == -18.7 && fix.horizontalError == 0.5 && fix.verticalError == 3)
        #expect(fix.speed == 0 && fix.course == 359.99 && fix.satellitesUsed == 0)
        #expect(fix.isUsable)
        #expect(Fix(time: 1, mode: .twoD, latitude: 0, longitude: 0, course: 360).course == 0)
    }
}
