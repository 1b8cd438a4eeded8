#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationTools
import LocationClient
import LocationSystem

/// `plot LOG… -o FILE [--gap S]`: the logs as one track in an SVG file,
/// written whole or not at all (or to standard output for `-o -`).
enum PlotCommand {
    static func run(_ logs: CtlInvocation.TrackLogs) -> ExitCode {
        guard let read = TrackLogReader.read(logs) else { return .refused }
        guard !read.track.points.isEmpty else {
            Console.error("locationctl: \(logs.logs.joined(separator: ", ")): no records to plot\n")
            return .refused
        }
        let summary = TrackSummary(read.track, bytes: read.bytes, badLines: read.badLines)
        let document = TrackPlot(read.track, summary: summary).svg()
        guard let output = logs.output, output != "-" else {
            Console.out(bytes: document)
            return .ok
        }
        do {
            let file = try AtomicFileWriter(path: output)
            try file.write(document)
            try file.commit()
        } catch {
            Console.error("locationctl: cannot write \(output): \(error)\n")
            return .refused
        }
        return .ok
    }
}
