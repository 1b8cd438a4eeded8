import LocationCore
import LocationProtocol
import LocationDaemon
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `locationd run` on an NMEA serial device (a pty behind a udev-style symlink) that is
/// unplugged and plugged in again: `status` says the outage with the same numbers as for gpsd
/// (#8: status says only what is true, with numbers), and says nothing of it once it is over.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct NMEADeviceOutageRunTests {
    /// The device source's waits between attempts to open (`NMEAReader.Timing`).
    static let firstWait = 0.25
    static let waitCap = 5.0

    @Test func anUnpluggedDeviceIsAnOutageInStatusWithItsNumbersUntilItIsBack() async throws {
        let sandbox = try DaemonSandbox("nmea-unplug")
        let first = try NMEAFakeReceiver()
        try sandbox.directory.link("gps", to: first.devicePath)
        try sandbox.writeNMEAConfig(device: sandbox.file("gps"))
        let daemon = try sandbox.startDaemon()
        defer { daemon.kill() }
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") }, "\(daemon.stderr)")
        let control = ControlPlane(sandbox: sandbox)
        var second = 0
        try #require(
            await waitUntilAsync(timeout: 60) {
                second += 1
                first.send(NMEASourceText.epoch(second % 60))
                return try await control.status().status.source == .fix
            }, "the device never gave a fix: \(daemon.stderr)")
        #expect(try await control.status().sourceOutage == nil, "open and sending: no outage")

        // Unplugged: the device node goes and udev removes its symlink (so a pty another test opens
        // meanwhile, which may get the same number, is not taken for it); the daemon's read fails and
        // it cannot open the path again.
        first.unplug()
        #expect(unlink(sandbox.file("gps")) == 0)
        var during: SourceOutage?
        try #require(
            await waitUntilAsync(timeout: 60) {
                during = try await control.status().sourceOutage
                return (during?.waits ?? 0) >= 3
            }, "status never showed the outage: \(daemon.stderr)")
        let seen = try #require(during)
        // A wait after the loss, then one after each failed attempt, the one under way included.
        #expect(seen.attempts == seen.waits - 1, "\(seen)")
        let expectedLast = min(Self.firstWait * Double(1 << (seen.waits - 1)), Self.waitCap)
        #expect(seen.lastWait == expectedLast && seen.longestWait == expectedLast, "waits double from 0.25 s: \(seen)")
        #expect(seen.seconds >= Self.firstWait * 3, "the waits so far are in the outage's time: \(seen)")
        let json = try #require(try await control.reply(["status"]).reply)
        #expect(json["source"] == .string("connecting") && json["outage"]?["attempts"]?.intValue ?? 0 >= 2, "\(json)")
        #expect(json["outage"]?["lastWait"]?.numberValue ?? 0 >= 1, "\(json)")
        let text = try await control.ctl(["status"]).stdout
        #expect(text.contains("not connected (retrying)") && text.contains(" attempts failed in "), "\(text)")
        #expect(daemon.stderr.contains("nmea: lost \(sandbox.file("gps")): "), "a warning with the cause: \(daemon.stderr)")

        // Plugged in again (another pty, the symlink moved as udev does): the outage is over.
        let replugged = try NMEAFakeReceiver()
        try sandbox.directory.link("gps", to: replugged.devicePath)
        try #require(
            await waitUntilAsync(timeout: 60) {
                second += 1
                replugged.send(NMEASourceText.epoch(second % 60))
                let report = try await control.status()
                return report.status.source == .fix && report.sourceOutage == nil
            }, "the daemon never opened the device again: \(daemon.stderr)")
        #expect(try await control.reply(["status"]).reply?["outage"] == nil, "no outage member once it is over")
        let notice = daemon.stderr.components("nmea: opened \(sandbox.file("gps")) again after ").dropFirst().first
        let line = try #require(notice?.prefix { $0 != "\n" }, "no reopen notice: \(daemon.stderr)")
        #expect(line.contains("waits between attempts 0.25 s, 0.5 s, 1 s"), "\(line)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
        replugged.unplug()
    }
}
