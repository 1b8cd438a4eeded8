import LocationCore
import LocationProtocol

/// The records of a JSON-lines log, and a sentence for every line that is not
/// one (the tests record those as issues).
public enum LogFileRecords {
    /// Every record of `bytes`; `name` heads each problem.
    public static func parse(_ bytes: [UInt8], name: String) -> (records: [LogRecord], problems: [String]) {
        var records: [LogRecord] = []
        var problems: [String] = []
        var stream = LogRecordStream()
        stream.feed(bytes) { result in
            switch result {
            case .success(let record): records.append(record)
            case .failure(let error): problems.append("\(name): \(error)")
            }
        }
        stream.finish { result in
            if case .failure(let error) = result { problems.append("\(name): \(error)") }
        }
        return (records, problems)
    }

    /// Every record of the file at `path` (none if it cannot be read yet).
    public static func read(_ path: String) -> (records: [LogRecord], problems: [String]) {
        parse((try? FileIO.read(path)) ?? [], name: path)
    }
}
