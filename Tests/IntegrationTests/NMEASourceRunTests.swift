import LocationCore
import LocationDaemon
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `locationd run` with `[source] type = nmea`: no gpsd at all.
@Suite(.enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct NMEASourceRunTests {
    @Test func aRecordedFileAsTheDeviceIsLoggedAsItsFiveMetreChain() async throws {
        let sandbox = try DaemonSandbox("nmea")
        let walk = PackagePaths.fixture("walk.nmea")
        try sandbox.writeNMEAConfig(device: walk)
        let daemon = try sandbox.startDaemon()
        let expected = distanceFilterChain(try nmeaFixes(walk), filter: 5)
        #expect(await waitUntil(timeout: 60) { sandbox.records().count >= expected.count }, "\(daemon.stderr)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
        let records = sandbox.records()
        #expect(records.map(\.time) == expected.map { $0.time ?? 0 })
        #expect(records.map(\.longitude) == expected.map { ($0.longitude * 1e7).rounded() / 1e7 })
    }
}
