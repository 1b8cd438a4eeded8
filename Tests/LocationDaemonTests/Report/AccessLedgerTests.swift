@testable import LocationDaemon
import LocationCore
import Testing
import TestSupport

/// The ledger's counts, through the memo of the key counted last (`AccessLedger.count`): the same
/// key again adds where it is, another key or a flush in between loses nothing and counts nothing twice.
@Suite(.timeLimit(.minutes(10))) struct AccessLedgerTests {
    private func counts(_ ledger: AccessLedger) -> [String] {
        ledger.read().map { "\($0.minute) \($0.client) \($0.accuracy.rawValue) \($0.count)" }.sorted()
    }

    @Test func repeatedAndInterleavedKeysAreEachCountedOnce() throws {
        let dir = try ScratchDirectory("ledger")
        let ledger = AccessLedger(directory: dir.path, days: 7, now: 100)
        for _ in 0..<3 { ledger.count("a", sink: .log, accuracy: .full, time: 60.5) }
        ledger.count("b", sink: .log, accuracy: .full, time: 61)
        ledger.count("a", sink: .log, accuracy: .reduced, time: 62)
        for _ in 0..<2 { ledger.count("a", sink: .log, accuracy: .full, time: 63) }
        // Minute 2 is open while minute 1 is flushed: the memo (minute 2's key) must not outlive that.
        ledger.count("c", sink: .log, accuracy: .full, time: 125)
        ledger.flush(now: 130)
        #expect(counts(ledger) == ["1 a full 5", "1 a reduced 1", "1 b full 1"])
        ledger.count("c", sink: .log, accuracy: .full, time: 126)
        ledger.count("a", sink: .log, accuracy: .full, time: 190)
        ledger.count("a", sink: .log, accuracy: .full, time: 191, n: 4)
        ledger.flush(now: 400, all: true)
        #expect(counts(ledger) == ["1 a full 5", "1 a reduced 1", "1 b full 1", "2 c full 2", "3 a full 5"])
        // Nothing left open: a flush of everything writes nothing more.
        ledger.flush(now: 500, all: true)
        #expect(ledger.read().count == 5)
    }
}
