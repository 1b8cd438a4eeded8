import LocationValues
import Glibc

/// Splits a coordinate log into records as its bytes arrive, for `export`
/// and `tail`: each complete line becomes a record or a numbered error;
/// blank lines are skipped, and heartbeat lines (`HeartbeatRecord`) skipped
/// and counted; only the current partial line is held.
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
    /// Heartbeat lines skipped so far (no position: not a track point).
    public private(set) var heartbeats = 0

    /// A stream at the start of a log.
    public init() {}

    /// Feeds the next bytes; calls `handle` for every line they complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (Result<LogRecord, LineError>) -> Void) {
        var start = 0
        while start < bytes.count {
            // memchr finds the newline far faster than a byte loop.
            guard let base = bytes.baseAddress,
                let hit = memchr(base + start, 0x0A, bytes.count - start)
            else {
                partial.append(contentsOf: bytes[start...])
                return
            }
            let end = base.distance(to: UnsafeRawPointer(hit))
            lineNumber += 1
            if partial.isEmpty {
                emit(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), unterminated: false, handle)
            } else {
                partial.append(contentsOf: bytes[start..<end])
                partial.withUnsafeBytes { emit($0, unterminated: false, handle) }
                partial.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
    }

    /// Feeds the next bytes; calls `handle` for every line they complete.
    public mutating func feed(_ bytes: [UInt8], _ handle: (Result<LogRecord, LineError>) -> Void) {
        bytes.withUnsafeBytes { feed($0, handle) }
    }

    /// Ends the input: a last line without a newline is parsed too.
    public mutating func finish(_ handle: (Result<LogRecord, LineError>) -> Void) {
        guard !partial.isEmpty else { return }
        lineNumber += 1
        let last = partial
        partial.removeAll()
        last.withUnsafeBytes { emit($0, unterminated: true, handle) }
    }

    /// The record one line of a log holds (without its `\n`), or why it
    /// holds none; `nil` for a blank line (spaces, tabs, a CR) or a heartbeat
    /// (`HeartbeatRecord`), which are skipped.
    public static func record(in line: UnsafeRawBufferPointer) -> Result<LogRecord, LogRecordError>? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) || HeartbeatRecord.isHeartbeat(line) { return nil }
        do {
            return .success(try LogRecord.parse(line))
        } catch {
            return .failure(error)
        }
    }

    private mutating func emit(
        _ line: UnsafeRawBufferPointer, unterminated: Bool, _ handle: (Result<LogRecord, LineError>) -> Void
    ) {
        if HeartbeatRecord.isHeartbeat(line) {
            heartbeats += 1
            return
        }
        guard let result = Self.record(in: line) else { return }
        handle(result.mapError { LineError(line: lineNumber, error: $0, unterminated: unterminated) })
    }
}
