#if canImport(Glibc)
import Glibc
#endif
import LocationValues
import LocationTools
import LocationClient
import LocationSystem

/// `plot LOG… -o FILE [--gap S] [--reference R]`: the logs as one track (or, with a
/// reference, the receivers' scatter) in an SVG file,
/// written whole or not at all (or to standard output for `-o -`).
enum PlotCommand {
    static func run(_ logs: CtlInvocation.TrackLogs) -> ExitCode {
        guard let read = TrackLogReader.read(logs) else { return .refused }
        guard !read.track.points.isEmpty else {
            Console.error("locationctl: \(logs.logs.joined(separator: ", ")): no records to plot\n")
            return .refused
        }
        let summary = TrackSummary(read.track, bytes: read.bytes, badLines: read.badLines)
        let document: [UInt8]
        let what: String
        if let reference = logs.reference {
            let receivers = ReceiverAccuracy.all(read.track, reference: reference)
            guard receivers.contains(where: { $0.fixes > 0 }) else {
                Console.error("locationctl: \(logs.logs.joined(separator: ", ")): no full-accuracy fixes to plot against the reference\n")
                return .refused
            }
            for warning in receivers.compactMap(\.movedWarning) { Console.error("locationctl: warning: \(warning)\n") }
            document = ScatterPlot(receivers, reference: reference, title: TrackPlot(read.track, summary: summary).titleLines[0]).svg()
            let measured = receivers.filter { $0.fixes > 0 }
            what = WrittenFile.plot("scatter", fixes: measured.reduce(0) { $0 + $1.fixes }, receivers: measured.count)
        } else {
            document = TrackPlot(read.track, summary: summary).svg()
            what = WrittenFile.plot("track", fixes: summary.fixes, receivers: read.track.devices.count)
        }
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
        Console.error(WrittenFile.note(what, path: output, bytes: document.count))
        return .ok
    }
}
