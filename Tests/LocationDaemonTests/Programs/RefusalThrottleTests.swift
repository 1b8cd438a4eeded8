@testable import LocationDaemon
import Testing

/// A refused program peer reaches the audit log once a window, with the count of the rest.
@Suite(.timeLimit(.minutes(10)))
struct RefusalThrottleTests {
    let nobody = RefusalThrottle.Key(client: "qgis", socket: "gpsd_socket", uid: 65534)

    @Test func theFirstRefusalIsRecordedAndRepeatsWithinTheWindowAreNot() {
        var throttle = RefusalThrottle()
        #expect(throttle.record(nobody, now: 100) == 0)
        for second in 1..<50 {
            #expect(throttle.record(nobody, now: 100 + Double(second)) == nil)
        }
        // After the window: recorded again, with the 49 that were not.
        #expect(throttle.record(nobody, now: 100 + RefusalThrottle.window) == 49)
        #expect(throttle.record(nobody, now: 101 + RefusalThrottle.window) == nil)
    }

    @Test func eachPeerSocketAndClientHasItsOwnWindow() {
        var throttle = RefusalThrottle()
        #expect(throttle.record(nobody, now: 10) == 0)
        #expect(throttle.record(RefusalThrottle.Key(client: "qgis", socket: "gpsd_socket", uid: 1000), now: 11) == 0)
        #expect(throttle.record(RefusalThrottle.Key(client: "qgis", socket: "gpsd_port", uid: 65534), now: 12) == 0)
        #expect(throttle.record(RefusalThrottle.Key(client: "geoclue", socket: "gpsd_socket", uid: 65534), now: 13) == 0)
        #expect(throttle.record(nobody, now: 14) == nil)
    }

    @Test func manyPeersNeverGrowItPastItsCapacityAndANewPeerIsAlwaysRecorded() {
        var throttle = RefusalThrottle()
        for uid in 0..<UInt32(RefusalThrottle.capacity * 3) {
            let key = RefusalThrottle.Key(client: "qgis", socket: "gpsd_socket", uid: uid)
            #expect(throttle.record(key, now: 5) == 0)
        }
        #expect(throttle.record(nobody, now: 6) == 0)
    }
}
