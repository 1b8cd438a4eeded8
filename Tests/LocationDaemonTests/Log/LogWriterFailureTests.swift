#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationDaemon
import LocationSystem
import Testing
import TestSupport

/// Disk full, file-size limits and I/O errors: reported once, nothing partial
/// left in the file, the writer keeps going and resumes when writes succeed.
@Suite(.timeLimit(.minutes(10))) struct LogWriterFailureTests {
    /// A small tmpfs of `size` mounted in a scratch directory, unmounted after `body`.
    static func onTmpfs(size: String = "256k", _ body: (_ mnt: String) throws -> Void) throws {
        let dir = try ScratchDirectory()
        let mnt = dir.file("mnt")
        #expect(mkdir(mnt, 0o755) == 0)
        try #require(Tmpfs.mount(mnt, size: size))
        defer {
            Tmpfs.unmount(mnt)
            withExtendedLifetime(dir) {}  // remove the directory only after the unmount
        }
        try body(mnt)
    }

    /// Fills every remaining page of the file system at `mnt`.
    static func fill(_ mnt: String) throws {
        try #require(Tmpfs.fill(mnt) > 0)
    }

    @Test(.enabled(if: Tmpfs.canMount, "needs permission to mount a small tmpfs"))
    func aFullFileSystemIsReportedOnceAndUnwrittenLinesAreCounted() throws {
        try Self.onTmpfs { mnt in
            let path = mnt + "/logger.jsonl"
            let writer = try LogWriter(path: path, fsync: .always)
            try Self.fill(mnt)
            let first = writer.append(logRecord(0))
            guard case .failed(let failedPath, let error, let held) = first else {
                Issue.record("expected a failure notice, got \(String(describing: first))")
                return
            }
            #expect(failedPath == path && error.errno == ENOSPC && held == 1)
            #expect(first?.level == .error)
            #expect(first?.description.hasPrefix("cannot write \(path) (No space left on device): no partial line is left in it;") == true)
            for n in 1..<5 { #expect(writer.append(logRecord(n)) == nil, "reported once per episode") }
            #expect(writer.flushIfDue(now: 10) == nil)
            #expect(writer.isFailing && writer.heldLines == 5)
            #expect(writer.nextDeadline(now: 10) == 10 + LogWriter.retryInterval, "held lines are tried again a second later")
            #expect(writer.close() == .closedWithUnwrittenLines(path: path, lost: 5))
            #expect(writer.linesLost == 5 && writer.linesWritten == 0)
        }
    }

    @Test(.enabled(if: Tmpfs.canMount, "needs permission to mount a small tmpfs"))
    func fullHoldDropsTheOldestAndResumesIntoTheReopenedFile() throws {
        try Self.onTmpfs { mnt in
            let path = mnt + "/logger.jsonl"
            let writer = try LogWriter(path: path, fsync: .always)
            try Self.fill(mnt)
            let total = LogWriter.holdLimit + 5
            var notices = 0
            for n in 0..<total where writer.append(logRecord(n)) != nil { notices += 1 }
            #expect(notices == 1)
            #expect(writer.heldLines == LogWriter.holdLimit && writer.linesLost == 5)
            // The administrator makes room and rotates the log (logrotate, SIGHUP).
            #expect(unlink(mnt + "/filler") == 0)
            #expect(rename(path, path + ".1") == 0)
            #expect(try writer.reopen() == 0)
            let notice = writer.flushIfDue(now: 0)
            #expect(notice == .recovered(path: path, caughtUp: LogWriter.holdLimit, lost: 5))
            #expect(notice?.description == "writing \(path) works again: 1024 held lines written, 5 lines lost")
            #expect(notice?.level == .notice)
            #expect(recordNumbers(try FileIO.read(path)) == Array(5..<total))
            #expect(try FileIO.read(path + ".1").isEmpty)
            #expect(!writer.isFailing && writer.heldLines == 0)
        }
    }

    @Test(.enabled(if: Tmpfs.canMount, "needs permission to mount a small tmpfs"))
    func statusShowsTheHeldLinesThenTheLostOnesThenTheRecovery() throws {
        try Self.onTmpfs { mnt in
            let path = mnt + "/logger.jsonl"
            let writer = try LogWriter(path: path, fsync: .always)
            #expect(writer.writeStatus == LogWriteStatus(path: path))
            // Full before the file has a page: the first line fails.
            try Self.fill(mnt)
            let before = SystemClock.utc()
            for n in 3..<13 { _ = writer.append(logRecord(n)) }
            let after = SystemClock.utc()
            var status = writer.writeStatus
            #expect(status.held == 10 && status.lost == 0 && status.written == 0 && status.failing)
            #expect(status.error == "write \(path): No space left on device")
            let since = try #require(status.since)
            #expect(since >= before && since <= after, "since the first failure")
            #expect(status.failureLine?.hasSuffix("; 10 lines held in memory, 0 lost") == true)

            // Past the hold limit the oldest go, and are counted; `since` stays the episode's start.
            for n in 13..<(13 + LogWriter.holdLimit) { _ = writer.append(logRecord(n)) }
            status = writer.writeStatus
            #expect(status.held == LogWriter.holdLimit && status.lost == 10 && status.since == since)

            // Room again: held lines written, the error gone, the lost count kept.
            #expect(unlink(mnt + "/filler") == 0)
            #expect(writer.flushIfDue(now: 0) == .recovered(path: path, caughtUp: LogWriter.holdLimit, lost: 10))
            status = writer.writeStatus
            #expect(status == LogWriteStatus(path: path, written: LogWriter.holdLimit, lost: 10))
            #expect(!status.failing && status.failureLine == nil)
        }
    }

    @Test(.enabled(if: Tmpfs.canMount, "needs permission to mount a small tmpfs"))
    func fullFileSystemLeavesNoPartialLineAndResumesWhenSpaceReturns() throws {
        try Self.onTmpfs(size: "64k") { mnt in
            let path = mnt + "/logger.jsonl"
            let writer = try LogWriter(path: path, fsync: .always)
            for n in 0..<30 { #expect(writer.append(logRecord(n)) == nil) }

            // Fill every remaining page of the file system.
            try Self.fill(mnt)

            // The log's page has room for ten more lines; the eleventh crosses into a page that is not there.
            var n = 30
            var notice: LogWriter.Notice?
            while n < 200 && notice == nil {
                notice = writer.append(logRecord(n))
                n += 1
            }
            guard case .failed(_, let error, let held) = notice else {
                Issue.record("expected a failure notice, got \(String(describing: notice))")
                return
            }
            #expect(error.errno == ENOSPC && held == 1)
            let failedAt = n - 1
            #expect(failedAt == 40)
            #expect(recordNumbers(try FileIO.read(path)) == Array(0..<failedAt), "only whole lines")
            #expect(writer.cutBacks == 1, "the line that met the full disk went out in part and was cut back")
            for _ in 0..<5 {
                #expect(writer.append(logRecord(n)) == nil)
                n += 1
            }
            #expect(writer.heldLines == 6)
            // Each append retried the held lines: none fitted, so none was written in part.
            #expect(writer.cutBacks == 1, "a retry that cannot fit writes nothing")
            #expect(recordNumbers(try FileIO.read(path)) == Array(0..<failedAt))

            #expect(unlink(mnt + "/filler") == 0)
            let resumed = writer.append(logRecord(n))
            n += 1
            #expect(resumed == .recovered(path: path, caughtUp: 7, lost: 0))
            #expect(recordNumbers(try FileIO.read(path)) == Array(0..<n))
            #expect(writer.close() == nil)
        }
    }

    @Test func fileSizeLimitGivesEFBIGOnceLeavesNoPartialLineAndResumes() async throws {
        let dir = try ScratchDirectory()
        // setrlimit would limit every test in this process: do it in a child.
        await #expect(processExitsWith: .success) { [path = dir.file("logger.jsonl") as String] in
            SignalSource.ignoreBenignSignals()
            let writer = try LogWriter(path: path, fsync: .always)
            let original = try #require(FileSizeLimit.set(4096))

            var n = 0
            var notice: LogWriter.Notice?
            while n < 100 && notice == nil {
                notice = writer.append(logRecord(n))
                n += 1
            }
            guard case .failed(_, let error, _) = notice else {
                Issue.record("expected a failure notice, got \(String(describing: notice))")
                return
            }
            #expect(error.errno == EFBIG)
            // 40 lines are 4000 bytes; the 41st was cut short at 4096 and cut back.
            #expect(n - 1 == 40)
            #expect(recordNumbers(try FileIO.read(path)) == Array(0..<40))
            #expect(writer.cutBacks == 1)
            for _ in 0..<3 {
                #expect(writer.append(logRecord(n)) == nil)
                n += 1
            }
            #expect(writer.cutBacks == 1, "a retry past the limit writes nothing")
            try #require(FileSizeLimit.restore(original))
            #expect(writer.append(logRecord(n)) == .recovered(path: path, caughtUp: 5, lost: 0))
            #expect(writer.close() == nil)
        }
        #expect(recordNumbers(try dir.read("logger.jsonl")) == Array(0..<45))
    }
}
