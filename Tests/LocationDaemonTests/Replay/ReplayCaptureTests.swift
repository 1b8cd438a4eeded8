import LocationCore
import LocationDaemon
import Testing
import TestSupport

/// Real captures whose receiver time goes back (fixtures/captures, from gpsd's
/// corpus): every usable fix reaches the always-authorized logger (issue #8 —
/// a time going back starts a new time base and is delivered).
@Suite(.timeLimit(.minutes(10))) struct ReplayCaptureTests {
    static let captures = PackagePaths.path("fixtures/captures")

    @Test(arguments: ["telit-he910.log", "humminbird-M37.log"])
    func everyUsableFixOfACaptureWhoseTimeGoesBackIsLogged(_ name: String) throws {
        let dir = try ScratchDirectory("replay-capture")
        let summary = try Replayer.run(Replayer.Options(
            input: Self.captures + "/" + name, config: try daemonConfig(in: dir)))
        let records = try logRecords(dir.file("log/logger.jsonl"))
        #expect(summary.statistics.usableFixes > 10, "\(name): too few fixes to mean anything")
        #expect(records.count == summary.statistics.usableFixes)
        // The capture does step back: some logged fix is older than the one before it.
        let steps = zip(records, records.dropFirst()).filter { $1.time < $0.time }
        #expect(!steps.isEmpty, "\(name): no backward step, the test shows nothing")
    }
}
