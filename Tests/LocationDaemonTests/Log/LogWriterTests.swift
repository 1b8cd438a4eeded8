#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import LocationSystem
import LocationDaemon
import Testing
import TestSupport

/// A numbered JSON record, newline-terminated, `length` bytes long in all.
func logRecord(_ n: Int, length: Int = 100) -> [UInt8] {
    let head = #"{"n":\#(n),"pad":""#
    let padding = max(0, length - head.utf8.count - 3)
    return Array((head + String(repeating: "x", count: padding) + "\"}\n").utf8)
}

/// The record numbers in a log, or `nil` if any line is not a whole record.
func recordNumbers(_ bytes: [UInt8]) -> [Int]? {
    guard bytes.isEmpty || bytes.last == UInt8(ascii: "\n") else { return nil }
    var numbers: [Int] = []
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
        guard let value = try? JSONValue.parse(Array(line)), let n = value["n"]?.intValue else { return nil }
        numbers.append(n)
    }
    return numbers
}

@Suite(.timeLimit(.minutes(10))) struct LogWriterTests {
    @Test(arguments: [
        ("whole lines", Array("{\"a\":1}\n{\"a\":2}\n".utf8), 16),
        ("torn last line", Array("{\"a\":1}\n{\"a\":2}\n{\"a\":".utf8), 16),
        ("only garbage, no newline", Array("garbage without any newline".utf8), 0),
        ("ends mid-UTF-8", Array("{\"a\":1}\n{\"p\":\"".utf8) + [0xE6, 0x97], 8),
        ("NUL blocks after a power cut", Array("{\"a\":1}\n".utf8) + [UInt8](repeating: 0, count: 4096), 8),
        ("torn line longer than the read chunk", Array("{\"a\":1}\n".utf8) + [UInt8](repeating: 0x61, count: 200_000), 8),
        ("empty", [], 0),
    ] as [(String, [UInt8], Int)])
    func openingCutsATornLastLine(shape: String, contents: [UInt8], kept: Int) throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("logger.jsonl", contents)
        let writer = try LogWriter(path: path, fsync: .always)
        #expect(writer.repairedBytes == contents.count - kept, "\(shape)")
        if kept == contents.count {
            #expect(writer.repairNotice == nil)
        } else {
            #expect(writer.repairNotice?.description == "repaired \(path): dropped \(contents.count - kept) bytes of a torn last line")
        }
        #expect(try dir.read(path) == Array(contents[0..<kept]))
        // Appending after the repair keeps every earlier whole line.
        #expect(writer.append(logRecord(7)) == nil)
        #expect(try dir.read(path) == Array(contents[0..<kept]) + logRecord(7))
    }

    @Test func createsMissingDirectoriesAndTheFileWithRestrictedModes() throws {
        let dir = try ScratchDirectory()
        let path = dir.file("a/b/logger.jsonl")
        let writer = try LogWriter(path: path, fsync: .interval)
        #expect(writer.repairedBytes == 0)
        var info = stat()
        #expect(stat(dir.file("a/b"), &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR)
        #expect(info.st_mode & 0o777 & ~0o755 == 0 && info.st_mode & 0o700 == 0o700)
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFREG)
        #expect(info.st_mode & 0o777 & ~0o640 == 0 && info.st_mode & 0o600 == 0o600)
    }

    @Test func appendsWholeLinesInOrderAddingAMissingNewline() throws {
        let dir = try ScratchDirectory()
        let path = dir.file("logger.jsonl")
        let writer = try LogWriter(path: path, fsync: .always)
        #expect(writer.append(#"{"n":0}"#) == nil)
        #expect(writer.append(Array(#"{"n":1}"#.utf8) + [0x0A]) == nil)
        for n in 2..<50 { #expect(writer.append(logRecord(n)) == nil) }
        #expect(writer.close() == nil)
        #expect(recordNumbers(try dir.read(path)) == Array(0..<50))
        #expect(writer.linesWritten == 50 && writer.linesLost == 0)
        // After close nothing more is written; the line is counted as lost.
        #expect(writer.append(logRecord(50)) == nil)
        #expect(writer.linesLost == 1)
        #expect(recordNumbers(try dir.read(path)) == Array(0..<50))
    }

    @Test func writersShareAFileWithoutOverwritingEachOther() throws {
        // O_APPEND: every write lands at the end, whoever else wrote last.
        let dir = try ScratchDirectory()
        let path = dir.file("shared.jsonl")
        let first = try LogWriter(path: path, fsync: .interval)
        let second = try LogWriter(path: path, fsync: .interval)
        for n in 0..<20 { _ = (n % 2 == 0 ? first : second).append(logRecord(n)) }
        _ = first.close()
        _ = second.close()
        #expect(recordNumbers(try dir.read(path)) == Array(0..<20))
    }

    @Test func appendsAtTheNewEndAfterTheFileIsTruncatedElsewhere() throws {
        let dir = try ScratchDirectory()
        let path = dir.file("logger.jsonl")
        let writer = try LogWriter(path: path, fsync: .always)
        for n in 0..<5 { _ = writer.append(logRecord(n)) }
        #expect(truncate(path, 0) == 0)
        _ = writer.append(logRecord(5))
        // Without O_APPEND the line would land at offset 500 after a hole of NULs.
        #expect(try dir.read(path) == logRecord(5))
    }

    @Test func reopenAfterRenameLeavesTheOldFileAndStartsANewOne() throws {
        let dir = try ScratchDirectory()
        let path = dir.file("logger.jsonl")
        let writer = try LogWriter(path: path, fsync: .always)
        _ = writer.append(logRecord(0))
        #expect(rename(path, dir.file("logger.jsonl.1")) == 0)
        _ = writer.append(logRecord(1))  // still the renamed file, as with logrotate before its postrotate
        #expect(try writer.reopen() == 0)
        _ = writer.append(logRecord(2))
        _ = writer.close()
        #expect(recordNumbers(try dir.read("logger.jsonl.1")) == [0, 1])
        #expect(recordNumbers(try dir.read(path)) == [2])
    }

    @Test func reopenRepairsATornTailOfTheFileNowAtThePath() throws {
        let dir = try ScratchDirectory()
        let path = dir.file("logger.jsonl")
        let writer = try LogWriter(path: path, fsync: .always)
        #expect(rename(path, dir.file("old.jsonl")) == 0)
        try dir.write("logger.jsonl", logRecord(0) + Array(#"{"n":1,"pa"#.utf8))
        #expect(try writer.reopen() == 10)
        #expect(writer.repairedBytes == 10)
        _ = writer.append(logRecord(2))
        #expect(recordNumbers(try dir.read(path)) == [0, 2])
    }

    @Test func failedReopenKeepsWritingTheOldFile() throws {
        let dir = try ScratchDirectory()
        let path = dir.file("logs/logger.jsonl")
        let writer = try LogWriter(path: path, fsync: .always)
        _ = writer.append(logRecord(0))
        #expect(rename(dir.file("logs"), dir.file("moved")) == 0)
        try dir.write("logs", "a file where the directory was")
        #expect(throws: SystemError.self) { try writer.reopen() }
        #expect(writer.append(logRecord(1)) == nil)
        _ = writer.close()
        #expect(recordNumbers(try dir.read("moved/logger.jsonl")) == [0, 1])
    }

    @Test func openingADirectoryFailsClearly() throws {
        let dir = try ScratchDirectory()
        #expect(mkdir(dir.file("logger.jsonl"), 0o755) == 0)
        let error = try #require(throws: SystemError.self) { try LogWriter(path: dir.file("logger.jsonl"), fsync: .always) }
        #expect(error.errno == EISDIR)
        #expect(error.description.contains(dir.file("logger.jsonl")))
    }

    @Test func alwaysSyncsEveryLineAndIntervalEachLineWithinASecond() throws {
        let dir = try ScratchDirectory()
        let always = try LogWriter(path: dir.file("always.jsonl"), fsync: .always)
        for n in 0..<3 { _ = always.append(logRecord(n)) }
        #expect(always.syncs == 3)
        #expect(always.nextDeadline(now: 100) == .infinity, "every line synced: nothing due")

        let interval = try LogWriter(path: dir.file("interval.jsonl"), fsync: .interval)
        #expect(interval.flushIfDue(now: 100) == nil)
        #expect(interval.syncs == 0, "nothing written, nothing to sync")
        #expect(interval.nextDeadline(now: 100) == .infinity)
        for n in 0..<3 { _ = interval.append(logRecord(n)) }
        #expect(interval.syncs == 0)
        #expect(interval.nextDeadline(now: 100) == 100, "written but not yet seen by flushIfDue: due now")
        _ = interval.flushIfDue(now: 100)
        #expect(interval.syncs == 0, "just written")
        let due = 100 + LogWriter.syncInterval + LogWriter.syncSlack
        #expect(interval.nextDeadline(now: 100) == due, "a second (and the slack) after it was written, whether or not a line follows")
        _ = interval.append(logRecord(3))
        _ = interval.flushIfDue(now: 100.5)
        #expect(interval.syncs == 0, "the oldest line is half a second old")
        #expect(interval.nextDeadline(now: 100.5) == due, "a later line does not put it off")
        _ = interval.flushIfDue(now: 100 + LogWriter.syncInterval - LogWriter.syncSlack)
        #expect(interval.syncs == 1, "one sync for the four lines")
        #expect(interval.nextDeadline(now: 101) == .infinity, "all synced")
        _ = interval.flushIfDue(now: 105)
        #expect(interval.syncs == 1, "nothing new to sync")
        _ = interval.append(logRecord(4))
        _ = interval.close()
        #expect(interval.syncs == 2, "close syncs what is unsynced")
        #expect(interval.nextDeadline(now: 106) == .infinity, "closed: nothing more is due")
    }

    @Test func aOneHertzReceiversSecondLineSyncsBothAsItIsWritten() throws {
        let dir = try ScratchDirectory()
        let writer = try LogWriter(path: dir.file("interval.jsonl"), fsync: .interval)
        _ = writer.append(logRecord(0))
        _ = writer.flushIfDue(now: 100)
        #expect(writer.syncs == 0)
        // The next epoch, a few milliseconds early: the two lines are synced as it is written.
        _ = writer.append(logRecord(1))
        _ = writer.flushIfDue(now: 100.997)
        #expect(writer.syncs == 1)
        #expect(writer.nextDeadline(now: 100.997) == .infinity)
        _ = writer.append(logRecord(2))
        _ = writer.flushIfDue(now: 102)
        #expect(writer.syncs == 1)
        // No line follows: the tick syncs it at its deadline.
        let due = 102 + LogWriter.syncInterval + LogWriter.syncSlack
        #expect(writer.nextDeadline(now: 102.5) == due)
        _ = writer.flushIfDue(now: due)
        #expect(writer.syncs == 2)
        // A reopen (SIGHUP) syncs the old file first; the new one has nothing unsynced.
        _ = writer.append(logRecord(3))
        try writer.reopen()
        #expect(writer.syncs == 3)
        #expect(writer.nextDeadline(now: 103.5) == .infinity)
        _ = writer.close()
        #expect(recordNumbers(try dir.read("interval.jsonl")) == [0, 1, 2, 3])
    }

    @Test func aLineWithAnEmbeddedNewlineIsAProgrammingError() async throws {
        let dir = try ScratchDirectory()
        await #expect(processExitsWith: .failure) { [path = dir.file("x.jsonl") as String] in
            let writer = try LogWriter(path: path, fsync: .always)
            _ = writer.append("{\"a\":1}\n{\"b\":2}")
        }
    }
}
