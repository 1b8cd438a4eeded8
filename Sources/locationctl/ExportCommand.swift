#if canImport(Glibc)
import Glibc
#endif
import LocationValues
import LocationTools
import LocationClient
import LocationSystem

/// `export LOG --format F [-o FILE] [--gap S]`: convert a log, skipping and
/// reporting bad lines; `-o` is written whole or not at all.
enum ExportCommand {
    /// Bad lines reported one by one; beyond this, only their number.
    static let reportLimit = 20

    static func run(_ export: CtlInvocation.Export) -> ExitCode {
        let name = export.log == "-" ? "standard input" : export.log
        let input: Int32
        if export.log == "-" {
            input = 0
        } else {
            input = open(export.log, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            guard input >= 0 else {
                Console.error("locationctl: cannot read \(export.log): \(String(cString: strerror(errno)))\n")
                return .refused
            }
        }
        defer { if input != 0 { close(input) } }

        var file: AtomicFileWriter?
        if let output = export.output {
            do {
                file = try AtomicFileWriter(path: output)
            } catch {
                Console.error("locationctl: cannot write \(output): \(String(cString: strerror(error.errno)))\n")
                return .refused
            }
        }
        var reported = 0
        var written = 0
        let summary: LogExport.Summary
        do {
            summary = try LogExport.run(
                input: input, inputName: name, format: export.format, gap: export.gap, line: export.line,
                output: { (bytes: [UInt8]) throws(SystemError) in
                    written += bytes.count
                    if let file { try file.write(bytes) } else { Console.out(bytes: bytes) }
                },
                badLine: { error in
                    reported += 1
                    if reported <= reportLimit { Console.error("locationctl: \(name): \(error); skipped\n") }
                })
        } catch {
            Console.error("locationctl: \(error)\n")
            return .refused
        }
        if summary.badLines > 0 {
            let more = summary.badLines > reportLimit ? " (the first \(reportLimit) are listed above)" : ""
            Console.error(
                "locationctl: skipped \(summary.badLines) line\(summary.badLines == 1 ? "" : "s") of \(name) that "
                    + "\(summary.badLines == 1 ? "is" : "are") not records\(more); exported \(summary.records) record\(summary.records == 1 ? "" : "s")\n")
        }
        if summary.records == 0 && summary.badLines > 0 {
            Console.error("locationctl: \(name) has no records: is it a locationd coordinate log?\n")
            return .refused
        }
        if let file, let output = export.output {
            do {
                try file.commit()
            } catch {
                Console.error("locationctl: cannot write \(output): \(error)\n")
                return .refused
            }
            Console.error(WrittenFile.note(WrittenFile.records(summary.records, format: export.format), path: output, bytes: written))
        }
        return .ok
    }
}
