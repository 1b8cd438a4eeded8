import LocationCore
import LocationProtocol
import LocationValues
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Two sources at once (issue #29 item 5, docs/sources.md "Several sources"): `[source]` is gpsd,
/// fed by gpsfake with fixtures/receivers/good.nmea (20 s, HDOP about 1), and `[source.file]` an
/// NMEA file followed past its end, to which the test appends poor.nmea (40 s, 30 m north, DOPs x8)
/// an epoch a second. One reader thread per source; the logger's one track follows the good
/// receiver while both report and the poor one after the good one stops; both receivers in
/// `status` with the source that brought each.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct SeveralSourcesRunTests {
    @Test(.enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
    func gpsdAndAnNMEAFileAtOnceGiveOneTrackNamingEachReceiver() async throws {
        let sandbox = try DaemonSandbox("sources")
        let file = sandbox.path + "/poor.nmea"
        try FileIO.write(file, "")
        // Five sentences an epoch, one receiver: 0.2 s a sentence is one epoch a second.
        let fake = try await GPSFake.start(
            logs: [SeveralReceiversRunTests.good], options: .init(cycle: 0.2, once: true, gated: true, linger: 120))
        defer { fake.stop() }
        let fileSource = "[source.file]\ntype = nmea\ndevice = \(file)\n\n"
        try sandbox.writeConfig(port: fake.port, clients: fileSource + DaemonSandbox.logger(filter: "none"))
        let daemon = try sandbox.startDaemon()
        defer { daemon.signal(SIGTERM) }
        try #require(await DaemonRunTests.waitForConnection(daemon), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("sources gpsd 127.0.0.1:\(fake.port) (default), nmea \(file) (file)"), "\(daemon.stderr)")
        fake.release()
        try #require(await waitUntil(timeout: 60) { !sandbox.records().isEmpty }, "no fix from gpsd: \(daemon.stderr)")

        // The poor receiver's epochs, one a second, appended to the followed file.
        let poor = (FileIO.text(SeveralReceiversRunTests.poor) ?? "").split(separator: "\n").filter { $0.hasPrefix("$") }
        try #require(poor.count == 200, "\(poor.count) sentences")
        let appender = Task {
            var epoch = 0
            while epoch * 5 < poor.count, !Task.isCancelled {
                let lines = poor[(epoch * 5)..<min(poor.count, epoch * 5 + 5)].joined(separator: "\r\n") + "\r\n"
                try? FileIO.append(file, Array(lines.utf8))
                epoch += 1
                // The receiver's pace, one epoch a second, is what the test is about: not a wait.
                try? await Task.sleep(for: .seconds(1))
            }
        }
        defer { appender.cancel() }
        let plane = ControlPlane(sandbox: sandbox)

        let done = await waitUntil(timeout: 120) {
            sandbox.records().last.map { $0.time >= SeveralReceiversRunTests.poorEnd } == true
        }
        try #require(done, "the poor receiver's last epoch never reached the log: \(daemon.stderr)")
        let records = sandbox.records()

        // Every record names its receiver: gpsd's pty, or the file's path.
        #expect(records.allSatisfy { $0.device != nil })
        #expect(records.last?.device == file)
        let goodDevice = try #require(records.first?.device)
        #expect(goodDevice.hasPrefix("/dev/"), "\(goodDevice)")
        #expect(Set(records.compactMap(\.device)) == [goodDevice, file])

        // The better one while both report; the receiver changes at most twice.
        // Up to the good receiver's last record in the log: the file's epochs lag gpsd's by the
        // seconds before the test began appending, so receiver times do not tell "while both report".
        let lastGood = try #require(records.lastIndex { $0.device == goodDevice })
        let whileBoth = records[...lastGood]
        let share = Double(whileBoth.filter { $0.device == goodDevice }.count) / Double(max(1, whileBoth.count))
        #expect(share >= 0.95, "share of the good receiver while both report: \(share)")
        let devices = records.map(\.device)
        #expect(zip(devices, devices.dropFirst()).filter { $0 != $1 }.count <= 2)
        #expect(daemon.stderr.contains("following \(file): \(goodDevice) gave no usable fix for "), "\(daemon.stderr)")

        // status: both receivers with the source that brought each, both sources with their states and counts.
        // The file's reader says end-of-file once its read after the last epoch finds nothing more,
        // which on a loaded machine may be after that epoch reached the log.
        let ended = await waitUntilAsync(timeout: 60, every: 0.2) {
            (try? await plane.status().sources.last?.state) == .endOfFile
        }
        #expect(ended, "the file source never said end-of-file")
        let (code, json, _) = try await plane.ctl(["--json", "status"])
        #expect(code == 0)
        let report = try StatusReport(json: JSONValue.parse(Array(json.utf8)))
        let receivers = report.status.receivers
        #expect(receivers.map(\.device).sorted() == [goodDevice, file].sorted(), "\(json)")
        #expect(receivers.first { $0.device == goodDevice }?.source == "gpsd 127.0.0.1:\(fake.port)", "\(json)")
        #expect(receivers.first { $0.device == file }?.source == "nmea \(file)", "\(json)")
        #expect(receivers.first { $0.device == file }?.state == .followed, "\(json)")
        #expect(report.sources.map(\.name) == ["default", "file"], "\(json)")
        #expect(report.sources.map(\.description) == ["gpsd 127.0.0.1:\(fake.port)", "nmea \(file)"], "\(json)")
        #expect(report.sources.last?.state == .endOfFile, "\(json)")
        #expect(report.sources.allSatisfy { ($0.counts?.fixes ?? 0) >= 20 }, "\(json)")
        #expect(report.sourceName == "gpsd 127.0.0.1:\(fake.port) (default), nmea \(file) (file)")
        let (_, text, _) = try await plane.ctl(["status"])
        #expect(text.contains("  source default, gpsd 127.0.0.1:\(fake.port): "), "\(text)")
        #expect(text.contains("  source file, nmea \(file): end-of-file"), "\(text)")
        #expect(text.contains("SOURCE") && text.contains("nmea \(file)"), "\(text)")
        print("two sources: \(records.count) records, share of the good receiver while both report \(share)")
    }
}
