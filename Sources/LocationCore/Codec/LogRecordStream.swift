/// Splits a coordinate log into records as its bytes arrive, for `export`
/// and `tail`: each complete line becomes a record or a numbered error;
/// blank lines are skipped; only the current partial line is held.
public struct LogRecordStream: Sendable {
    /// A line that is not a record.
    public struct LineError: Error, Sendable, Hashable, CustomStringConvertible {
        /// 1-based line number.
        public var line: Int
        /// What is wrong with it.
        public var error: LogRecordError
        /// Whether it was an unterminated last line (a torn write).
        public var unterminated: Bool

        /// `line 12: missing "lat"` (`line 12 (unterminated): …` for a torn last line).
        public var description: String {
            "line \(line)\(unterminated ? " (unterminated)" : ""): \(error)"
        }
    }

    private var partial: [UInt8] = []
    /// Lines completed so far.
    public private(set) var lineNumber = 0

    /// A stream at the start of a log.
    public init() {}

    /// Feeds the next bytes; calls `handle` for every line they complete.
    public mutating func feed(_ bytes: some Collection<UInt8>, _ handle: (Result<LogRecord, LineError>) -> Void) {
        for byte in bytes {
            if byte == 0x0A {
                lineNumber += 1
                emit(unterminated: false, handle)
                partial.removeAll(keepingCapacity: true)
            } else {
                partial.append(byte)
            }
        }
    }

    /// Ends the input: a last line without a newline is parsed too.
    public mutating func finish(_ handle: (Result<LogRecord, LineError>) -> Void) {
        guard !partial.isEmpty else { return }
        lineNumber += 1
        emit(unterminated: true, handle)
        partial.removeAll()
    }

    private func emit(unterminated: Bool, _ handle: (Result<LogRecord, LineError>) -> Void) {
        if partial.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        do {
            handle(.success(try LogRecord.parse(partial)))
        } catch {
            handle(.failure(LineError(line: lineNumber, error: error, unterminated: unterminated)))
        }
    }
}
