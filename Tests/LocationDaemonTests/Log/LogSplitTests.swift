#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import LocationDaemon
import Testing
import TestSupport

/// `split` (locationd.conf(5)): each line goes to the file of its own time, whole, once; a cut is
/// named in the journal and as a `log` change; SIGHUP reopens the current file.
@Suite(.timeLimit(.minutes(10))) struct LogSplitTests {
    static func client(log: String, split: String) -> String {
        DaemonFixtures.logger.replacingOccurrences(of: "log = logger.jsonl", with: "log = \(log)\nsplit = \(split)")
    }

    static func t(_ hour: Int, _ minute: Int, _ second: Double = 0) -> Double {
        UTCTime.seconds(year: 2026, month: 3, day: 14, hour: hour, minute: minute, second: second)
    }

    /// The files under `dir/log/logger` and the record numbers in each.
    static func files(_ dir: ScratchDirectory) throws -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        for name in try FileIO.list(dir.file("log/logger")) {
            found[name] = recordNumbers(try dir.read("log/logger/" + name))
        }
        return found
    }

    @Test(arguments: ["always", "interval"])
    func linesGoToTheFileOfTheirOwnHourAndNoneIsLostOrRepeated(_ fsync: String) throws {
        let dir = try ScratchDirectory("split-hour")
        let config = try daemonConfig(in: dir, clients: Self.client(log: "logger/%Y%m%d-%H.jsonl", split: "hour"), fsync: fsync)
        let logs = try ClientLogs(config: config)
        #expect(!FileIO.exists(dir.file("log/logger")), "no file before the first line: its time names it")
        // 12:59:58, 12:59:59, 13:00:00, 13:00:01, then the receiver's time goes back to 12:59:59.5 (a power
        // cycle), then on to 14:00:00.
        let times = [Self.t(12, 59, 58), Self.t(12, 59, 59), Self.t(13, 0), Self.t(13, 0, 1), Self.t(12, 59, 59.5), Self.t(14, 0)]
        for (n, time) in times.enumerated() { #expect(logs.append(logRecord(n), client: "logger", time: time)) }
        logs.flushIfDue(now: 1)
        #expect(logs.path(of: "logger") == dir.file("log/logger/20260314-14.jsonl"), "status names the file written now")
        let changes = logs.takeChanges()
        #expect(changes.map(\.status.path).map { $0.split(separator: "/").last.map(String.init) ?? "" } == [
            "20260314-12.jsonl", "20260314-13.jsonl", "20260314-12.jsonl", "20260314-14.jsonl",
        ])
        #expect(changes.allSatisfy { !$0.status.failing })
        #expect(changes[2].message.contains("went back"))
        logs.closeAll()
        #expect(try Self.files(dir) == [
            "20260314-12.jsonl": [0, 1, 4],
            "20260314-13.jsonl": [2, 3],
            "20260314-14.jsonl": [5],
        ])
        #expect(logs.writeStatus(of: "logger")?.written == 6)
    }

    @Test func aSizeCutNumbersTheNextFileAndKeepsLinesWhole() throws {
        let dir = try ScratchDirectory("split-size")
        let config = try daemonConfig(in: dir, clients: Self.client(log: "logger/day-%Y%m%d.jsonl", split: "4096"), fsync: "interval")
        let logs = try ClientLogs(config: config)
        // 100-byte lines: 40 fit in 4096 bytes, the 41st starts the next file.
        for n in 0..<100 { logs.append(logRecord(n), client: "logger", time: Self.t(10, 0, Double(n))) }
        logs.closeAll()
        let files = try Self.files(dir)
        #expect(files == [
            "day-20260314.jsonl": Array(0..<40),
            "day-20260314.1.jsonl": Array(40..<80),
            "day-20260314.2.jsonl": Array(80..<100),
        ])
        // A new run goes on in the last file with room, not in a full one.
        let again = try ClientLogs(config: config)
        again.append(logRecord(100), client: "logger", time: Self.t(11, 0))
        again.closeAll()
        #expect(try Self.files(dir)["day-20260314.2.jsonl"] == Array(80..<101))
    }

    @Test func sighupReopensTheCurrentFileAfterARename() throws {
        let dir = try ScratchDirectory("split-hup")
        let config = try daemonConfig(in: dir, clients: Self.client(log: "logger/%Y%m%d-%H.jsonl", split: "hour"))
        let logs = try ClientLogs(config: config)
        logs.append(logRecord(0), client: "logger", time: Self.t(9, 10))
        let path = dir.file("log/logger/20260314-09.jsonl")
        #expect(rename(path, path + ".old") == 0)
        #expect(logs.reopenAll() == 1)
        logs.append(logRecord(1), client: "logger", time: Self.t(9, 11))
        logs.closeAll()
        #expect(try Self.files(dir) == ["20260314-09.jsonl.old": [0], "20260314-09.jsonl": [1]])
    }

    @Test func aFileThatCannotBeOpenedLosesItsLinesCountedAndTheNextPeriodOpens() throws {
        let dir = try ScratchDirectory("split-fail")
        let config = try daemonConfig(in: dir, clients: Self.client(log: "logger/%Y%m%d-%H.jsonl", split: "hour"))
        let logs = try ClientLogs(config: config)
        // A symbolic link where 10:00's file would be: refused, never followed.
        #expect(mkdir(dir.file("log"), 0o755) == 0 && mkdir(dir.file("log/logger"), 0o755) == 0)
        #expect(symlink(dir.file("elsewhere"), dir.file("log/logger/20260314-10.jsonl")) == 0)
        #expect(!logs.append(logRecord(0), client: "logger", time: Self.t(10, 0)))
        let failing = logs.takeChanges()
        #expect(failing.count == 1 && failing.first?.status.failing == true)
        #expect(logs.append(logRecord(1), client: "logger", time: Self.t(11, 0)))
        logs.closeAll()
        #expect(logs.writeStatus(of: "logger")?.lost == 1)
        #expect(logs.writeStatus(of: "logger")?.written == 1)
        #expect(recordNumbers(try dir.read("log/logger/20260314-11.jsonl")) == [1])
        #expect(access(dir.file("elsewhere"), F_OK) != 0, "nothing was written through the link")
    }
}
