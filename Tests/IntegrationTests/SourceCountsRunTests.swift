import LocationCore
import LocationProtocol
import LocationDaemon
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `locationd run` on an NMEA device that sends good epochs and corrupted sentences:
/// `status` counts every sentence, the unreadable ones and the fixes (#8: status says only
/// what is true, with numbers), in JSON and for people.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct SourceCountsRunTests {
    @Test func statusCountsTheSentencesTheUnreadableOnesAndTheFixes() async throws {
        let sandbox = try DaemonSandbox("source-counts")
        let receiver = try NMEAFakeReceiver()
        try sandbox.writeNMEAConfig(device: receiver.devicePath)
        let daemon = try sandbox.startDaemon()
        defer { daemon.kill() }
        try #require(await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") }, "\(daemon.stderr)")
        let control = ControlPlane(sandbox: sandbox)
        let corrupted = NMEASourceText.corrupted(NMEASourceText.sentence("GPTXT,01,01,02,hello"))
        var second = 0
        var counts: SourceCounts?
        try #require(
            await waitUntilAsync(timeout: 60) {
                second += 1
                receiver.send(NMEASourceText.epoch(second % 60) + corrupted)
                counts = try await control.status().sourceCounts
                return (counts?.fixes ?? 0) >= 3 && (counts?.unreadable ?? 0) >= 3
            }, "status never counted: \(String(describing: counts)) \(daemon.stderr)")
        let seen = try #require(counts)
        #expect(seen.connections == 1 && seen.attempts == 1, "\(seen)")
        // Each round is four sentences, one of them corrupted; the last may not be read yet.
        #expect(seen.lines >= 3 * seen.unreadable && seen.lines <= 4 * second, "\(seen), \(second) rounds")
        #expect(seen.unreadable <= second && seen.fixes <= second, "\(seen), \(second) rounds")
        let json = try #require(try await control.reply(["status"]).reply)
        #expect(json["sourceCounts"]?["unreadable"]?.intValue ?? 0 >= 3, "\(json)")
        let text = try await control.ctl(["status"]).stdout
        #expect(text.contains(" unreadable), "), "\(text)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
    }
}
