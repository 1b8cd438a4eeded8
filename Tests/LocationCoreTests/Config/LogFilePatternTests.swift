import Testing
@testable import LocationConfig
@testable import LocationCore
@testable import LocationValues

/// `split` and the strftime fields of `log` (locationd.conf(5)): which file each line's own
/// time goes to, and when a file is cut.
@Suite struct LogFilePatternTests {
    static func t(_ day: Int, _ hour: Int, _ minute: Int, _ second: Double = 0, month: Int = 3, year: Int = 2026) -> Double {
        UTCTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    @Test func splitValuesAreRead() {
        #expect(LogSplit(text: "hour") == .hour)
        #expect(LogSplit(text: "day") == .day)
        #expect(LogSplit(text: "15 min") == .minutes(15))
        #expect(LogSplit(text: "15min") == .minutes(15))
        #expect(LogSplit(text: "64M") == .size(64 << 20))
        #expect(LogSplit(text: "1G") == .size(1 << 30))
        #expect(LogSplit(text: "500k") == .size(500 << 10))
        #expect(LogSplit(text: "8192") == .size(8192))
        for bad in ["0 min", "1441 min", "hours", "100", "-5M", "5T", "", "min", "1.5M"] {
            #expect(LogSplit(text: bad) == nil, "\(bad)")
        }
        for split in [LogSplit.hour, .day, .minutes(10), .size(64 << 20), .size(5000), .size(12 << 10)] {
            #expect(LogSplit(text: split.description) == split, "\(split) reads back")
        }
    }

    @Test func anHourSplitCutsAtTheFullHourUTC() throws {
        let pattern = LogFilePattern("/log/logger-%Y%m%d-%H.jsonl", split: .hour)
        let before = pattern.file(for: Self.t(14, 12, 59, 59.999))
        let after = pattern.file(for: Self.t(14, 13, 0, 0))
        #expect(before.path == "/log/logger-20260314-12.jsonl")
        #expect(after.path == "/log/logger-20260314-13.jsonl")
        #expect(before.period == Self.t(14, 12, 0)..<Self.t(14, 13, 0))
        #expect(!pattern.needsCut(before, time: Self.t(14, 12, 59, 59.999), fileBytes: 1 << 40, bytes: 100), "a clock split ignores size")
        #expect(pattern.needsCut(before, time: Self.t(14, 13, 0)))
        #expect(!pattern.needsCut(after, time: Self.t(14, 13, 0)))
    }

    @Test func aDaySplitCutsAtMidnightAcrossMonthAndYear() {
        let pattern = LogFilePattern("d/%Y/%j.jsonl", split: .day)
        #expect(pattern.file(for: Self.t(31, 23, 59, 59, month: 12, year: 2025)).path == "d/2025/365.jsonl")
        #expect(pattern.file(for: Self.t(1, 0, 0, 0, month: 1, year: 2026)).path == "d/2026/001.jsonl")
        #expect(pattern.file(for: Self.t(9, 0, 0, 0, month: 4, year: 2026)).path == "d/2026/099.jsonl")
    }

    @Test func nMinuteCutsStartAtMidnightAndTheLastEndsThere() {
        let pattern = LogFilePattern("%H%M.jsonl", split: .minutes(25))
        // 00:00, 00:25, 00:50, … 23:45 (57 × 25 min = 23:45), whose file ends at midnight.
        #expect(pattern.file(for: Self.t(14, 0, 24, 59)).path == "0000.jsonl")
        #expect(pattern.file(for: Self.t(14, 0, 25)).path == "0025.jsonl")
        #expect(pattern.file(for: Self.t(14, 1, 14)).path == "0050.jsonl")
        let last = pattern.file(for: Self.t(14, 23, 59, 59))
        #expect(last.path == "2345.jsonl")
        #expect(last.period?.upperBound == Self.t(15, 0, 0))
        #expect(pattern.file(for: Self.t(15, 0, 0)).path == "0000.jsonl")
    }

    @Test func timeGoingBackCutsToTheFileOfTheLinesOwnTime() {
        let pattern = LogFilePattern("%Y%m%d-%H.jsonl", split: .hour)
        let now = pattern.file(for: Self.t(14, 13, 5))
        // The receiver's time steps back 52 min (a power cycle): the line is 12:13's.
        #expect(pattern.needsCut(now, time: Self.t(14, 12, 13)))
        #expect(pattern.file(for: Self.t(14, 12, 13)).path == "20260314-12.jsonl")
        // A glitch a year ahead gets the file of its own time, and coming back cuts again.
        let ahead = pattern.file(for: Self.t(14, 13, 5, year: 2027))
        #expect(ahead.path == "20270314-13.jsonl")
        #expect(pattern.needsCut(ahead, time: Self.t(14, 13, 6)))
    }

    @Test func aSizeCutNumbersTheFilesOfOneName() {
        let pattern = LogFilePattern("/log/raw-%Y%m%d.ubx", split: .size(10_000))
        let first = pattern.file(for: Self.t(14, 9, 0))
        #expect(first.path == "/log/raw-20260314.ubx")
        #expect(!pattern.needsCut(first, time: Self.t(14, 9, 1), fileBytes: 9_000, bytes: 1_000), "exactly full")
        #expect(pattern.needsCut(first, time: Self.t(14, 9, 1), fileBytes: 9_001, bytes: 1_000))
        #expect(!pattern.needsCut(first, time: Self.t(14, 9, 1), fileBytes: 0, bytes: 50_000), "an empty file takes any line")
        let second = pattern.file(for: Self.t(14, 9, 1), after: first)
        #expect(second.path == "/log/raw-20260314.1.ubx")
        let third = pattern.file(for: Self.t(14, 9, 2), after: second)
        #expect(third.path == "/log/raw-20260314.2.ubx")
        // The next day's name starts again at no number.
        #expect(pattern.needsCut(third, time: Self.t(15, 0, 0), fileBytes: 10, bytes: 10))
        #expect(pattern.file(for: Self.t(15, 0, 0), after: third).path == "/log/raw-20260315.ubx")
        #expect(LogFilePattern.numbered("a.b/log", 3) == "a.b/log.3")
        #expect(LogFilePattern.numbered("/x/.hidden", 1) == "/x/.hidden.1")
    }

    @Test func fieldsAreCheckedAndPeriodsMustBeSeparated() {
        #expect(LogFilePattern.problem(in: "a-%Y%m%d-%H%M%S-%j-%y-%r-%%.log") == nil)
        #expect(LogFilePattern.problem(in: "a-%Q.log") != nil)
        #expect(LogFilePattern.problem(in: "a-%") != nil)
        #expect(LogFilePattern("a-%H.log", split: .hour).separatesPeriods == false, "the same hour every day")
        #expect(LogFilePattern("a-%Y%m%d.log", split: .hour).separatesPeriods == false)
        #expect(LogFilePattern("a-%Y%m%d-%H.log", split: .hour).separatesPeriods)
        #expect(LogFilePattern("a-%y%j-%H%M.log", split: .minutes(10)).separatesPeriods)
        #expect(LogFilePattern("a-%Y%m%d-%H.log", split: .minutes(10)).separatesPeriods == false)
        #expect(LogFilePattern("a.log", split: .size(8192)).separatesPeriods)
        #expect(LogFilePattern("100%%-%Y.log", split: nil).expand(at: 0) == "100%-1970.log")
    }

    @Test func theReceiverIsItsLastPathComponentAndNeverLeavesTheDirectory() {
        let pattern = LogFilePattern("raw/%r-%Y%m%d-%H.raw", split: .hour)
        #expect(pattern.expand(at: Self.t(14, 12, 0), receiver: "/dev/ttyACM0") == "raw/ttyACM0-20260314-12.raw")
        #expect(LogFilePattern.receiverName("/dev/serial/by-id/usb-u-blox AG") == "usb-u-blox_AG")
        #expect(LogFilePattern.receiverName("..") == "receiver")
        #expect(LogFilePattern.receiverName(nil) == "receiver")
    }
}
