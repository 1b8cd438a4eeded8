#if canImport(Glibc)
import Glibc
#endif
import LocationClient
import LocationCore
import LocationTools
import LocationSystem
@testable import LocationDaemon
import Testing
import TestSupport

/// Streaming export of a real file, bad lines skipped and numbered; files
/// written whole or not at all.
@Suite struct LogExportTests {
    static func record(_ i: Int) -> LogRecord {
        LogRecord(
            time: 1_773_532_201 + Double(i), latitude: 52.3765432 + Double(i) * 1e-5, longitude: 4.8954321,
            altitude: 3.5, horizontalError: 4.8, verticalError: nil, speed: 1.25, course: 90, mode: .threeD,
            satellites: 9, accuracy: .full, client: "logger")
    }

    /// A log of `count` records with bad lines at the given 1-based line numbers.
    static func log(records count: Int, badAt bad: Set<Int>) -> [UInt8] {
        var out: [UInt8] = []
        var next = 0
        var line = 1
        while next < count {
            if bad.contains(line) {
                out += Array(#"{"time":"2026-03-14T23:50:01Z","lat":"north"}"#.utf8) + [0x0A]
            } else {
                out += record(next).line()
                next += 1
            }
            line += 1
        }
        return out
    }

    @Test(arguments: ExportFormat.allCases)
    func badLinesAreSkippedAndReportedByNumber(format: ExportFormat) throws {
        let directory = try ScratchDirectory("export")
        let path = try directory.write("log.jsonl", Self.log(records: 3000, badAt: [2, 1500, 2999]) + Array("torn".utf8))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var document: [UInt8] = []
        var slices = 0
        var bad: [LogRecordStream.LineError] = []
        let summary = try LogExport.run(
            input: fd, inputName: path, format: format, gap: 60,
            output: { (bytes: [UInt8]) throws(SystemError) in
                document += bytes
                slices += 1
            },
            badLine: { bad.append($0) })
        #expect(summary.records == 3000)
        #expect(summary.badLines == 4)
        #expect(bad.map(\.line) == [2, 1500, 2999, 3004])
        #expect(bad.last?.unterminated == true)
        #expect(slices > 1, "the document is written as it is made, not at the end")
        #expect(document == Exporter.document((0..<3000).map(Self.record), format: format))
    }

    @Test(arguments: ExportFormat.allCases)
    func inputWithBadLinesAndNoRecordWritesNoDocument(format: ExportFormat) throws {
        let directory = try ScratchDirectory("export-none")
        let path = try directory.write("notes.txt", "hello\nworld\n")
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var document: [UInt8] = []
        let summary = try LogExport.run(
            input: fd, inputName: path, format: format, gap: 60,
            output: { (bytes: [UInt8]) throws(SystemError) in document += bytes }, badLine: { _ in })
        #expect(summary.records == 0 && summary.badLines == 2)
        #expect(document.isEmpty, "no empty document for something that is not a log")
    }

    @Test func anAtomicFileAppearsOnlyWhenCommitted() throws {
        let directory = try ScratchDirectory("atomic")
        let target = directory.file("walk.gpx")
        let writer = try AtomicFileWriter(path: target)
        try writer.write(Array("<gpx/>".utf8))
        #expect(!directory.exists("walk.gpx"))
        try writer.commit()
        #expect(try directory.text("walk.gpx") == "<gpx/>")
        #expect(try directory.entries() == ["walk.gpx"])
        var info = stat()
        let mask = umask(0)
        umask(mask)
        #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o666 & ~mask)
    }

    @Test func anAbandonedAtomicFileLeavesNothingAndKeepsTheOldFile() throws {
        let directory = try ScratchDirectory("atomic-abandon")
        try directory.write("walk.gpx", "old")
        do {
            let writer = try AtomicFileWriter(path: directory.file("walk.gpx"))
            try writer.write(Array("half a docu".utf8))
        }
        #expect(try directory.entries() == ["walk.gpx"])
        #expect(try directory.text("walk.gpx") == "old")
    }
}
