import LocationCodecs
import LocationCore
import LocationValues
import Testing
import TestSupport

@testable import LocationDaemon

#if canImport(Glibc)
import Glibc
#endif

/// One gpsd session seen twice: by the live `GPSDSource` (libgps, the CGPS
/// shim, the epoch assembly) and recorded by a plain watcher as `gpspipe -w`
/// records it, then read back by `GPSDLogParser` with the replay's TPV reader.
/// The recording gives the fixes the source delivered live.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: GPSFake.isAvailable, "needs gpsfake (gpsd-clients), gpsd and python3-gps"))
struct GPSDLogLiveTests {
    static func logFixes(_ lines: [String]) -> [Fix] {
        var parser = GPSDLogParser(device: "unused")
        let reader = GPSDShimTPVReader()
        var fixes: [Fix] = []
        Array(lines.joined(separator: "\n").utf8 + [10]).withUnsafeBytes {
            parser.feed($0, readingTPV: reader.read) { fixes.append($0) }
        }
        parser.finish(readingTPV: reader.read) { fixes.append($0) }
        return fixes
    }

    @Test(arguments: GPSDSourceTests.GeneratedLog.allCases)
    func aRecordingOfTheSessionGivesTheFixesTheSourceDeliveredLive(log: GPSDSourceTests.GeneratedLog) async throws {
        let path = log.write()
        defer { unlink(path) }
        let replay = try await GPSDReplay.run(log: path)
        try #require(!replay.fixes.isEmpty && replay.recorded.count > replay.fixes.count)
        let recorded = Self.logFixes(replay.recorded)
        // Compared as text: a no-fix epoch's NaN position is equal to itself there.
        #expect(recorded.map { "\($0)" } == replay.fixes.map { "\($0)" }, "live \(replay.fixes.count), recorded \(recorded.count)")
        #expect(recorded.allSatisfy { $0.device?.hasPrefix("/dev/") == true }, "gpsd names its pty in every TPV")
    }

    /// Real receivers (fixtures/captures) and the project's awkward tracks: no fix, corrupted lines, midnight.
    @Test(arguments: [
        "fixtures/captures/humminbird-M37.log", "fixtures/captures/telit-he910.log", "fixtures/nmea/no-fix-gaps.nmea",
        "fixtures/nmea/corrupted.nmea", "fixtures/nmea/midnight.nmea",
    ])
    func aRecordingOfARealReceiversSessionGivesTheLiveFixes(_ name: String) async throws {
        let replay = try await GPSDReplay.run(log: PackagePaths.path(name), cycle: 0.001)
        try #require(!replay.fixes.isEmpty)
        let recorded = Self.logFixes(replay.recorded)
        // Compared as text: a no-fix epoch's NaN position is equal to itself there.
        #expect(recorded.map { "\($0)" } == replay.fixes.map { "\($0)" }, "live \(replay.fixes.count), recorded \(recorded.count)")
    }
}
