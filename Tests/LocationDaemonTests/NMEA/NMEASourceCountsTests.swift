import LocationCore
import LocationProtocol
import LocationDaemon
import Testing
import TestSupport

/// #8: what an NMEA source has read is in `status` with numbers (`sourceCounts`):
/// every sentence, the unreadable ones, the fixes and the drops by reason.
@Suite(.timeLimit(.minutes(10))) struct NMEASourceCountsTests {
    @Test func aFileWithBadSentencesIsCountedLineByLine() async throws {
        let scratch = try ScratchDirectory("nmea-counts")
        let file = scratch.path + "/track.nmea"
        let bad = NMEASourceText.corrupted(NMEASourceText.sentence("GPGGA,120001.50,4807.001,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,"))
        try FileIO.write(file, NMEASourceText.epoch(0) + bad + NMEASourceText.epoch(1) + bad + NMEASourceText.epoch(2))
        let source = NMEADeviceSource(path: file, baud: 9600)
        #expect(source.counts == SourceCounts(), "zero before it starts")
        let log = NMEAEventLog(source.start())
        defer { source.stop() }
        #expect(await log.wait { $0.fixes.count == 3 })
        let expected = SourceCounts(attempts: 1, connections: 1, lines: 11, unreadable: 2, fixes: 3)
        #expect(await waitUntil(timeout: 10) { source.counts == expected }, "\(String(describing: source.counts))")
    }

    @Test func aPathThatCannotBeOpenedCountsItsAttempts() async throws {
        let scratch = try ScratchDirectory("nmea-counts")
        let source = NMEADeviceSource(path: scratch.path + "/no-such-device", baud: 9600)
        let log = NMEAEventLog(source.start())
        defer { source.stop() }
        #expect(await log.wait { $0.count(.connecting, containing: "cannot open") >= 1 })
        #expect(await waitUntil(timeout: 10) { (source.counts?.attempts ?? 0) >= 2 })
        #expect(source.counts?.connections == 0 && source.counts?.lines == 0)
    }
}
