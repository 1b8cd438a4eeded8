import LocationCore
import LocationProtocol
import LocationValues
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Two receivers on one gpsd (issue #29, docs/sources.md "Several receivers"): gpsfake feeds
/// fixtures/receivers/good.nmea (20 s, HDOP about 1) and poor.nmea (40 s, 30 m north, DOPs x8),
/// each on its own pty, at about one epoch a second each. The logger's one track follows the good
/// receiver while both report and the poor one within `failover` seconds after the good one stops.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct SeveralReceiversRunTests {
    static let good = PackagePaths.path("fixtures/receivers/good.nmea")
    static let poor = PackagePaths.path("fixtures/receivers/poor.nmea")
    /// The good log's last epoch and the poor one's (2026-03-14 09:30:19 and 09:30:39 UTC).
    static let goodEnd = 1_773_480_619.0
    static let poorEnd = 1_773_480_639.0

    @Test(.enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
    func oneTrackFromTheBetterReceiverThenTheOtherWithinFailover() async throws {
        let sandbox = try DaemonSandbox("receivers")
        // Five sentences an epoch, two receivers in turn: 0.1 s a sentence is one epoch a second each.
        let fake = try await GPSFake.start(
            logs: [Self.good, Self.poor], options: .init(cycle: 0.1, once: true, gated: true, linger: 120))
        defer { fake.stop() }
        try sandbox.writeConfig(port: fake.port, clients: DaemonSandbox.logger(filter: "none"))
        let daemon = try sandbox.startDaemon()
        defer { daemon.signal(SIGTERM) }
        try #require(await DaemonRunTests.waitForConnection(daemon), "\(daemon.stderr)")
        fake.release()
        let plane = ControlPlane(sandbox: sandbox)

        let done = await waitUntil(timeout: 120) { sandbox.records().last.map { $0.time >= Self.poorEnd } == true }
        try #require(done, "the poor receiver's last epoch never reached the log: \(daemon.stderr)")
        let records = sandbox.records()
        let devices = records.map(\.device)

        // Every record names its receiver, and there are two.
        let named = records.filter { $0.device != nil }.count
        #expect(named == records.count)
        let poorDevice = try #require(records.last?.device)
        let goodDevice = try #require(records.first { $0.device != poorDevice }?.device, "only \(poorDevice) was logged")

        // No epoch twice, time never goes back, and the receiver changes at most twice (no zigzag).
        for (a, b) in zip(records, records.dropFirst()) { #expect(a.time < b.time, "\(a.text) then \(b.text)") }
        let switches = zip(devices, devices.dropFirst()).filter { $0 != $1 }.count
        #expect(switches <= 2, "\(switches) switches")

        // While both report, the good one is followed.
        let whileBoth = records.filter { $0.time <= Self.goodEnd }
        let share = Double(whileBoth.filter { $0.device == goodDevice }.count) / Double(max(1, whileBoth.count))
        #expect(share >= 0.95, "share of the good receiver while both report: \(share)")
        let goodWorst = records.filter { $0.device == goodDevice }.compactMap(\.horizontalError).max() ?? .infinity
        let poorBest = records.filter { $0.device == poorDevice }.compactMap(\.horizontalError).min() ?? 0
        #expect(goodWorst < poorBest, "the good receiver's estimates \(goodWorst) m, the poor one's \(poorBest) m")

        // The failover: after `failover` (3 s) of silence, and within 3 s of wall clock plus one epoch.
        // Measured on the daemon's clock, not between the records' times: once the good log has ended
        // gpsfake gives its turns to the poor one, which then plays at about twice its rate (records
        // 09:30:19 then 09:30:24 for a silence of 3.3 s, measured 2026-12-04).
        let stderr = daemon.stderr
        let marker = "following \(poorDevice): \(goodDevice) gave no usable fix for "
        let gap = try #require(
            stderr.firstRange(of: marker).flatMap { Double(stderr[$0.upperBound...].prefix { $0 != " " }) },
            "no failover in the diagnostics: \(stderr)")
        #expect(gap >= 3 && gap < 4, "gap \(gap) s")

        // Both in status, with who follows which.
        let (code, json, _) = try await plane.ctl(["--json", "status"])
        #expect(code == 0)
        let report = try StatusReport(json: JSONValue.parse(Array(json.utf8)))
        let listed = report.status.receivers
        #expect(listed.map(\.device).sorted() == [goodDevice, poorDevice].sorted(), "\(json)")
        #expect(listed.first { $0.device == poorDevice }?.state == .followed)
        #expect(listed.first { $0.device == poorDevice }?.clients == ["logger"])
        #expect(listed.first { $0.device == goodDevice }?.state == .silent)
        // Both had a usable fix soon after they appeared (gpsfake starts them with one), both from the one source.
        #expect(listed.allSatisfy { $0.timeToFirstFix.map { $0 >= 0 && $0 < 10 } == true }, "\(json)")
        #expect(listed.allSatisfy { $0.source?.hasPrefix("gpsd 127.0.0.1:") == true }, "\(json)")
        let (_, text, _) = try await plane.ctl(["status"])
        #expect(text.contains("receivers (from gpsd 127.0.0.1:") && text.contains("TTFF"), "\(text)")
        #expect(text.contains(goodDevice) && text.contains("followed"), "\(text)")

        let figures =
            "two receivers: \(records.count) records, \(switches) switch(es), share of the good one while both report "
            + "\(share), gap after it stopped \(gap) s, records naming their receiver \(named)/\(records.count)"
        print(figures)
    }
}
