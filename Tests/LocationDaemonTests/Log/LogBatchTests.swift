#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationDaemon
import Testing
import TestSupport

/// Numbered records `range`, one after the other: a batch of whole lines.
private func batch(_ range: Range<Int>) -> [UInt8] {
    range.flatMap { logRecord($0) }
}

/// Whole lines in batches: `fsync = interval` and replay write many lines per
/// `write(2)`, never part of one.
@Suite(.timeLimit(.minutes(10))) struct LogBatchTests {
    @Test func aBatchOfLinesIsOneWrite() throws {
        let dir = try ScratchDirectory()
        let path = dir.file("logger.jsonl")
        let writer = try LogWriter(path: path, fsync: .interval)
        #expect(writer.appendLines(batch(0..<10), count: 10) == nil)
        #expect(writer.appendLines(batch(10..<25), count: 15) == nil)
        #expect(writer.writes == 2)
        #expect(writer.linesWritten == 25)
        #expect(recordNumbers(try dir.read(path)) == Array(0..<25))
        #expect(writer.close() == nil)
    }

    @Test func intervalLinesWaitForTheTickAndGoOutInOneWrite() throws {
        let dir = try ScratchDirectory("batch")
        let logs = try ClientLogs(config: try daemonConfig(in: dir, fsync: "interval"))
        for n in 0..<40 { #expect(logs.append(logRecord(n), client: "logger")) }
        #expect(try dir.read("log/logger.jsonl").isEmpty, "held until the tick")
        #expect(logs.nextDeadline(now: 10) == 10, "lines batched: the tick is due now")
        logs.flushIfDue(now: 10)
        #expect(recordNumbers(try dir.read("log/logger.jsonl")) == Array(0..<40))
        #expect(logs.writer(of: "logger")?.writes == 1)
        #expect(logs.writer(of: "logger")?.syncs == 0, "just written")
        let due = 10 + LogWriter.syncInterval + LogWriter.syncSlack
        #expect(logs.nextDeadline(now: 10) == due, "synced within a second of being written")
        logs.flushIfDue(now: due)
        #expect(logs.writer(of: "logger")?.syncs == 1)
        #expect(logs.nextDeadline(now: due) == .infinity)
        for n in 40..<45 { logs.append(logRecord(n), client: "logger") }
        logs.closeAll()
        #expect(recordNumbers(try dir.read("log/logger.jsonl")) == Array(0..<45), "close writes the rest")
    }

    @Test(arguments: ["interval", "always"])
    func aLogThatCouldNotBeOpenedCountsEveryLineItLoses(fsync: String) throws {
        let dir = try ScratchDirectory("batch")
        let logs = try ClientLogs(config: try daemonConfig(in: dir, fsync: fsync))
        // A file where the reloaded log's directory should be: that log cannot be opened.
        try dir.write("log/blocked", "")
        logs.reconfigure(try daemonConfig(in: dir, clients: "[client.logger]\nlog = blocked/logger.jsonl\n", fsync: fsync))
        let slot = try #require(logs.slot(of: "logger"))
        #expect(logs.writeStatus(of: "logger")?.open == false)
        // A fix's line for two deliveries, then one more: each is lost, and counted.
        logs.append(prefix: Array(#"{"n":1,"#.utf8), slots: [slot, slot])
        logs.append(prefix: Array(#"{"n":2,"#.utf8), slots: [slot])
        #expect(logs.writeStatus(of: "logger")?.lost == 3)
        #expect(!logs.append(logRecord(3), client: "logger"))
        #expect(logs.writeStatus(of: "logger")?.lost == 4)
        #expect(logs.writeStatus(of: "logger")?.written == 0)
        logs.closeAll()
    }

    @Test func aPauseWithNoNewLineStillSyncsALineThatIsDue() throws {
        let dir = try ScratchDirectory("batch")
        let logs = try ClientLogs(config: try daemonConfig(in: dir, fsync: "interval"))
        logs.append(logRecord(0), client: "logger")
        logs.writeBatches(now: 10)
        #expect(logs.writer(of: "logger")?.syncs == 0, "just written")
        let due = 10 + LogWriter.syncInterval + LogWriter.syncSlack
        #expect(logs.nextDeadline(now: 10) == due)
        // The reader's wait ends at the deadline with nothing read: its pause syncs the line.
        logs.writeBatches(now: due)
        #expect(logs.writer(of: "logger")?.syncs == 1)
        #expect(logs.nextDeadline(now: due) == .infinity)
        logs.closeAll()
    }

    @Test func aFullBatchIsWrittenWithoutWaitingForTheTick() throws {
        let dir = try ScratchDirectory("batch")
        let logs = try ClientLogs(config: try daemonConfig(in: dir, fsync: "interval"))
        let perBatch = logs.batchLimit / 100
        for n in 0..<(perBatch + 1) { logs.append(logRecord(n), client: "logger") }
        // One batch went when the next line would not fit; only whole lines are in the file.
        #expect(recordNumbers(try dir.read("log/logger.jsonl")) == Array(0..<perBatch))
        #expect(logs.writer(of: "logger")?.writes == 1)
        logs.closeAll()
        #expect(recordNumbers(try dir.read("log/logger.jsonl")) == Array(0..<(perBatch + 1)))
    }

    @Test func theDaemonWritesABurstWhenItsSourcePauses() throws {
        let dir = try ScratchDirectory("batch")
        let core = try DaemonCore(config: try daemonConfig(in: dir, fsync: "interval"), seed: 1, clock: ManualClock().clock)
        core.ingest(.state(.connected, detail: "connected"))
        for i in 0..<5 { core.ingest(.fix(walkFix(i, metres: Double(i) * 10))) }
        #expect(try dir.read("log/logger.jsonl").isEmpty, "a burst is gathered")
        core.writeBatchedLines()
        #expect(try logRecords(dir.file("log/logger.jsonl")).map(\.time) == (0..<5).map { walkFix($0).time })
        core.shutdown()
    }

    @Test func alwaysWritesAndSyncsEachLineBeforeAppendReturns() throws {
        let dir = try ScratchDirectory("batch")
        let logs = try ClientLogs(config: try daemonConfig(in: dir, fsync: "always"))
        for n in 0..<3 {
            logs.append(logRecord(n), client: "logger")
            #expect(recordNumbers(try dir.read("log/logger.jsonl")) == Array(0...n))
            #expect(logs.writer(of: "logger")?.syncs == n + 1)
        }
        logs.closeAll()
    }

    @Test func aBatchCutShortByTheFileSizeLimitLeavesOnlyWholeLinesAndIsRetried() async throws {
        let dir = try ScratchDirectory()
        // setrlimit would limit every test in this process: do it in a child.
        await #expect(processExitsWith: .success) { [path = dir.file("logger.jsonl") as String] in
            SignalSource.ignoreBenignSignals()
            let writer = try LogWriter(path: path, fsync: .interval)
            let original = try #require(FileSizeLimit.set(4096))
            #expect(writer.appendLines(batch(0..<30), count: 30) == nil)
            // 30 more lines would end at 6000 bytes: the write stops at 4096 and is cut back.
            guard case .failed(_, let error, let held) = writer.appendLines(batch(30..<60), count: 30) else {
                Issue.record("expected a failure notice")
                return
            }
            #expect(error.errno == EFBIG && held == 30)
            #expect(recordNumbers(try FileIO.read(path)) == Array(0..<30))
            try #require(FileSizeLimit.restore(original))
            #expect(writer.flushIfDue(now: 0) == .recovered(path: path, caughtUp: 30, lost: 0))
            #expect(writer.close() == nil)
        }
        #expect(recordNumbers(try dir.read("logger.jsonl")) == Array(0..<60))
    }
}
