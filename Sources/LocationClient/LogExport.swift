import LocationProtocol
import LocationTools
import LocationSystem

/// `locationctl export`: streams a coordinate log through `LogRecordStream`
/// and an export encoder, a slice at a time, so a log of any size needs
/// memory for one record (and, for KML, one segment's coordinates).
public enum LogExport {
    /// What an export did.
    public struct Summary: Sendable, Hashable {
        /// Records written.
        public var records = 0
        /// Lines skipped because they are not records.
        public var badLines = 0
    }

    /// Reads the log from `input` (a descriptor, read to its end), writes the
    /// document in `format` through `output` in slices, and calls `badLine`
    /// for every line that is not a record (it is skipped). Input with bad
    /// lines and no record at all is no log: nothing is written.
    public static func run(
        input: Int32, inputName: String, format: ExportFormat, gap: Double, line: Bool = false,
        output: ([UInt8]) throws(SystemError) -> Void,
        badLine: (LogRecordStream.LineError) -> Void
    ) throws(SystemError) -> Summary {
        var summary = Summary()
        var encoder = Exporter.encoder(for: format, gap: gap, line: line)
        var stream = LogRecordStream()
        var out: [UInt8] = []
        out.reserveCapacity(1 << 17)
        encoder.begin(into: &out)
        func take(_ result: Result<LogRecord, LogRecordStream.LineError>) {
            switch result {
            case .success(let record):
                encoder.add(record, into: &out)
                summary.records += 1
            case .failure(let error):
                summary.badLines += 1
                badLine(error)
            }
        }
        try DescriptorIO.readChunks(input, name: inputName) { (piece) throws(SystemError) in
            stream.feed(piece) { take($0) }
            if out.count >= 1 << 16 {
                try output(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        stream.finish { take($0) }
        // Bad lines and no record: not a log, and no empty document to show for it.
        if summary.records == 0 && summary.badLines > 0 { return summary }
        encoder.finish(into: &out)
        try output(out)
        return summary
    }
}
