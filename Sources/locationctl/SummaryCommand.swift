import LocationValues
import LocationTools

/// `summary LOG… [--gap S] [--reference R]`: the logs' figures as text or, with `--json`, one object.
enum SummaryCommand {
    static func run(_ logs: CtlInvocation.TrackLogs, json: Bool) -> ExitCode {
        guard let read = TrackLogReader.read(logs) else { return .refused }
        var summary = TrackSummary(read.track, bytes: read.bytes, badLines: read.badLines)
        summary.heartbeats = read.heartbeats
        let files = logs.logs.map { $0 == "-" ? "standard input" : $0 }
        let receivers = logs.reference.map { ReceiverAccuracy.all(read.track, reference: $0) } ?? []
        if json {
            // JSON as it is: escaping is for the text a person reads.
            Console.out(bytes: Array(SummaryRenderer.renderJSON(summary, files: files, reference: logs.reference, receivers: receivers).utf8))
        } else {
            Console.out(SummaryRenderer.render(summary, files: files, reference: logs.reference, receivers: receivers))
        }
        return .ok
    }
}
