#if canImport(Glibc)
import Glibc
#endif
import LocationClient
import LocationProtocol
import LocationTools
import LocationSystem
import Testing
import TestSupport

/// Streaming export of a real file, bad lines skipped and numbered; files
/// written whole or not at all.
@Suite(.timeLimit(.minutes(10))) struct LogExportTests {
    @Test(arguments: ExportFormat.allCases)
    func badLinesAreSkippedAndReportedByNumber(format: ExportFormat) throws {
        let directory = try ScratchDirectory("export")
        let path = try directory.write("log.jsonl", SampleLog.log(records: 3000, badAt: [2, 1500, 2999]) + Array("torn".utf8))
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
        #expect(document == Exporter.document((0..<3000).map(SampleLog.record), format: format))
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
