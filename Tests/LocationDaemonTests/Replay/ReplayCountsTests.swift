import LocationCore
import Testing
import TestSupport

@testable import LocationDaemon

/// #32: `locationd replay`'s counts add up. Every sentence framed is counted once, by what
/// became of it; fragments that never became sentences are counted apart, so "malformed"
/// can no longer exceed the sentences. Checked on the project's recordings and on every
/// capture of gpsd's corpus in fixtures/gpsd.
@Suite(.timeLimit(.minutes(10))) struct ReplayCountsTests {
    static let corpus = PackagePaths.gpsdCaptures + "/gpsd-corpus"
    static let projectRecordings = FileIO.files(in: PackagePaths.projectNMEA, suffix: ".nmea")
    static let corpusCaptures = FileIO.files(in: corpus, suffix: ".log")

    static func checkSums(_ path: String) throws {
        let dir = try ScratchDirectory("replay-counts")
        let summary = try Replayer.run(Replayer.Options(input: path, config: try daemonConfig(in: dir)))
        let s = summary.statistics
        #expect(s.sentences == s.used + s.ignored + s.lateSentences + s.badChecksums + s.malformed, "\(path): \(s)")
        #expect(s.addsUp)
        #expect(s.malformed <= s.sentences && s.unreadableTimes <= s.used)
        #expect(s.usableFixes <= s.epochs)
        #expect(summary.text.contains("sentences: \(s.sentences) = used \(s.used)"), "\(summary.text)")
        #expect(summary.text.contains("fragments (not sentences, dropped): \(s.fragments)"))
    }

    @Test(arguments: projectRecordings)
    func theProjectsRecordingsAddUp(_ name: String) throws {
        try Self.checkSums(PackagePaths.fixture(name))
    }

    @Test(arguments: corpusCaptures)
    func gpsdsCapturesAddUp(_ name: String) throws {
        try Self.checkSums(Self.corpus + "/" + name)
    }

    @Test func aDamagedRecordingCountsFragmentsApartFromSentences() throws {
        let dir = try ScratchDirectory("replay-counts")
        let summary = try Replayer.run(
            Replayer.Options(input: PackagePaths.fixture("corrupted.nmea"), config: try daemonConfig(in: dir)))
        let s = summary.statistics
        // Eight pieces of damage in that file: each either never became a sentence or was framed
        // too short or too long, never both.
        #expect(s.fragments > 0 && s.malformed > 0)
        #expect(s.fragments + s.malformed == 8)
        #expect(s.addsUp)
    }
}
