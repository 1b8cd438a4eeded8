import LocationCore
import LocationProtocol
import LocationValues
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Pinning (issue #29 item 3, docs/sources.md "Several receivers"), live: gpsd fed by gpsfake with
/// fixtures/receivers/good.nmea (20 s) and poor.nmea (40 s), one pty each. Two clients pinned one
/// to each receiver log only their receiver; a `best` client follows the rule; when the good
/// receiver stops, its pinned client is told `location-unknown` once and `status` says why, while
/// the other two go on. A program on the `best` client's `gpsd_port` sees each TPV name its receiver.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct PinnedReceiversRunTests {
    static let goodEnd = SeveralReceiversRunTests.goodEnd
    static let poorEnd = SeveralReceiversRunTests.poorEnd

    static func client(_ name: String, receiver: String? = nil, port: Int? = nil) -> String {
        var lines = [
            "[client.\(name)]", "log = \(name).jsonl", "distance_filter = none", "authorization = always", "updating = on",
            "in_use = on", "usage = Logs a receiver side by side",
        ]
        if let receiver { lines.append("receiver = \(receiver)") }
        if let port { lines.append("gpsd_port = \(port)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The watch stream's events, parsed.
    static func events(_ watcher: ChildProcess) -> [JSONValue] {
        watcher.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(Array($0.utf8)) }
    }

    static func isLocation(_ event: JSONValue, _ client: String) -> Bool {
        event["event"] == "location" && event["client"]?.stringValue == client
    }

    /// The events from the first location of both pinned clients after the release on: what the
    /// daemon says once fixes flow.
    static func sinceFlowing(_ events: [JSONValue]) -> ArraySlice<JSONValue> {
        let good = events.firstIndex { isLocation($0, "goodlog") } ?? events.endIndex
        let poor = events.firstIndex { isLocation($0, "poorlog") } ?? events.endIndex
        return events[max(good, poor)...]
    }

    static func isUnknown(_ event: JSONValue, _ client: String) -> Bool {
        event["event"] == "error" && event["code"] == "location-unknown" && event["client"]?.stringValue == client
    }

    @Test(
        .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"),
        .enabled(if: ExternalTool.isAvailable("gpspipe"), "needs gpspipe (gpsd-clients)"))
    func eachPinnedClientLogsItsReceiverAndASilentOneIsItsOutageAlone() async throws {
        let sandbox = try DaemonSandbox("pinned")
        let fake = try await GPSFake.start(
            logs: [SeveralReceiversRunTests.good, SeveralReceiversRunTests.poor],
            options: .init(cycle: 0.1, once: true, gated: true, linger: 120))
        defer { fake.stop() }
        let port = try LoopbackTCP.freePort()
        try sandbox.writeConfig(port: fake.port, clients: Self.client("best", port: port))
        let daemon = try sandbox.startDaemon()
        defer { daemon.signal(SIGTERM) }
        try #require(await DaemonRunTests.waitForConnection(daemon), "\(daemon.stderr)")
        let plane = ControlPlane(sandbox: sandbox)

        // gpsfake names its receivers by pty: two epochs of each, then `status` tells which is which.
        fake.release(sentences: 20)
        let found = await waitUntilAsync(timeout: 60, every: 0.2) {
            ((try? await plane.status().status.receivers) ?? []).filter { $0.quality?.horizontalError != nil }.count == 2
        }
        try #require(found, "status never listed two receivers: \(daemon.stderr)")
        let listed = try await plane.status().status.receivers.sorted {
            ($0.quality?.horizontalError ?? .infinity) < ($1.quality?.horizontalError ?? .infinity)
        }
        let (good, poor) = (listed[0].device, listed[1].device)
        #expect(good.hasPrefix("/dev/") && poor.hasPrefix("/dev/") && good != poor, "\(listed)")

        // Pin a client to each, and watch every client; then the rest of both logs.
        try sandbox.writeConfig(
            port: fake.port,
            clients: [Self.client("best", port: port), Self.client("goodlog", receiver: good), Self.client("poorlog", receiver: poor)]
                .joined(separator: "\n"))
        daemon.signal(SIGHUP)
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("reloaded the configuration") }, "\(daemon.stderr)")
        let watcher = try LogWriteEventRunTests.watch(sandbox, "watch.jsonl")
        defer { watcher.kill() }
        try #require(await waitUntil(timeout: 60) { watcher.stdout.contains(#""client":"poorlog""#) }, "\(watcher.stdout)")
        let pipe = try ChildProcess(["gpspipe", "-w", "127.0.0.1:\(port)"], stdoutPath: sandbox.file("gpspipe.out"))
        defer { pipe.kill() }
        try #require(await waitUntil(timeout: 60) { pipe.stdout.contains(#""class":"WATCH""#) }, "\(pipe.stdout)")
        fake.release()
        // gpsfake resumes at its own pace, seconds late on a loaded machine: a silence before the
        // first fix after the release is gpsfake starting again, not the good receiver ending.
        let flowing = await waitUntil(timeout: 90) {
            let events = Self.events(watcher)
            return events.contains { Self.isLocation($0, "goodlog") } && events.contains { Self.isLocation($0, "poorlog") }
        }
        try #require(flowing, "no fix reached goodlog and poorlog after the release: \(watcher.stdout)")

        // The good receiver stops: its pinned client alone is told, and status says why, with numbers.
        let told = await waitUntil(timeout: 90) { Self.sinceFlowing(Self.events(watcher)).contains { Self.isUnknown($0, "goodlog") } }
        try #require(told, "goodlog was never told location-unknown: \(watcher.stdout)")
        let report = try await plane.status()
        func status(_ name: String) throws -> ClientStatus {
            try #require(report.status.clients.first { $0.authorization.client == name })
        }
        let silent = try status("goodlog")
        #expect(!silent.delivering && silent.eligible)
        #expect(
            silent.reason.hasPrefix("its receiver \(good) (receiver = \(good)) has given no usable fix for ")
                && silent.reason.last == "s" && silent.reason.contains { $0.isNumber },
            "\(silent.reason)")
        #expect(silent.drops[.otherReceiver] > 0, "the poor receiver's fixes are counted, not delivered")
        #expect(try status("poorlog").delivering && status("best").delivering, "\(report.status.clients.map(\.reason))")

        let done = await waitUntil(timeout: 120) { sandbox.records("poorlog").last.map { $0.time >= Self.poorEnd } == true }
        try #require(done, "the poor receiver's last epoch never reached its log: \(daemon.stderr)")
        try #require(await waitUntil(timeout: 30) { sandbox.records("best").last.map { $0.time >= Self.poorEnd } == true })

        // Each pinned log has its receiver alone, every epoch of it from the reload on.
        let goodLog = sandbox.records("goodlog")
        let poorLog = sandbox.records("poorlog")
        #expect(!goodLog.isEmpty && goodLog.allSatisfy { $0.device == good }, "\(goodLog.map(\.device))")
        #expect(poorLog.count > goodLog.count && poorLog.allSatisfy { $0.device == poor }, "\(poorLog.map(\.device))")
        #expect(goodLog.last.map { $0.time == Self.goodEnd } == true)

        // The best client follows the rule: the good receiver while both report, then the poor one.
        let best = sandbox.records("best")
        let devices = best.map(\.device)
        #expect(zip(devices, devices.dropFirst()).filter { $0 != $1 }.count == 1, "\(devices)")
        #expect(best.filter { $0.time <= Self.goodEnd }.allSatisfy { $0.device == good })
        #expect(best.filter { $0.time > Self.goodEnd + 4 }.allSatisfy { $0.device == poor })

        // While the poor receiver reported, nobody else was told location-unknown, and goodlog only once.
        let events = Self.sinceFlowing(Self.events(watcher))
        let lastPoor = try #require(events.lastIndex { Self.isLocation($0, "poorlog") })
        let window = events[..<lastPoor]
        #expect(window.filter { Self.isUnknown($0, "goodlog") }.count == 1)
        #expect(!window.contains { Self.isUnknown($0, "poorlog") || Self.isUnknown($0, "best") }, "\(watcher.stdout)")
        let message = window.first { Self.isUnknown($0, "goodlog") }?["message"]?.stringValue ?? ""
        #expect(message == "its receiver \(good) (receiver = \(good)) has given no usable fix for 3 s", "\(message)")

        // gpspipe on the best client's gpsd_port: each TPV names its receiver, each announced by a DEVICE first.
        let objects = jsonObjects(pipe.stdout)
        let tpvs = objects.filter { $0["class"] == "TPV" }
        #expect(Set(tpvs.compactMap { $0["device"]?.stringValue }) == [good, poor], "\(pipe.stdout)")
        let notices = objects.filter { $0["class"] == "DEVICE" }.compactMap { $0["path"]?.stringValue }
        #expect(notices == [good, poor], "\(pipe.stdout)")
        let first = objects.first { $0["class"] == "DEVICES" }?["devices"]?.arrayValue ?? []
        #expect(first.compactMap { $0["path"]?.stringValue } == ["locationd:best"], "none served yet: \(pipe.stdout)")
        // A program that comes later finds both in DEVICES.
        let later = try await ChildProcess.run(["gpspipe", "-w", "-n", "3", "127.0.0.1:\(port)"], timeout: 60)
        let listedLater = jsonObjects(later.output).first { $0["class"] == "DEVICES" }?["devices"]?.arrayValue ?? []
        #expect(listedLater.compactMap { $0["path"]?.stringValue } == [good, poor], "\(later.output)")
    }
}
