/// The rows of a saved list, read one at a time: the elements of the first
/// JSON array in a file (`{"apps":[{…},{…}]}`), each parsed on its own, so
/// one bad row is reported with its place and skipped while the others are
/// kept. Memory is bounded by `maximumRowBytes`, whatever the file's size: a
/// longer row is scanned past, not kept, and reported. A row is on one line
/// (written so, or all on the file's one line): a row still open at a line's
/// end is reported as cut there, and the next line read afresh.
public struct JSONRows {
    /// One row: its place in the array (0-based) and its value, or why it is skipped.
    public struct Row: Sendable {
        /// The row's index in the array.
        public var index: Int
        /// The parsed row, or a sentence saying why it was skipped.
        public var value: Result<JSONValue, Skipped>
    }

    /// Why a row was skipped, as a sentence.
    public struct Skipped: Error, Sendable, Hashable, CustomStringConvertible {
        /// The sentence.
        public var description: String

        /// A reason from its sentence.
        public init(_ description: String) { self.description = description }
    }

    private enum Phase { case before, between, inRow, after }

    /// Rows longer than this (bytes) are skipped unread.
    public let maximumRowBytes: Int
    private var phase = Phase.before
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var row: [UInt8] = []
    private var rowLength = 0
    private var index = 0

    /// A reader keeping at most `maximumRowBytes` of a row.
    public init(maximumRowBytes: Int) {
        self.maximumRowBytes = maximumRowBytes
    }

    /// Whether the array was closed (`]`): a file cut short leaves it open.
    public var complete: Bool { phase == .after }

    /// Reads `bytes`, the file's next piece, handing each row completed in it to `body`.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes, _ body: (Row) -> Void) where Bytes.Element == UInt8 {
        for byte in bytes {
            switch phase {
            case .after:
                return
            case .before:
                if inString {
                    skipString(byte)
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "[") {
                    phase = .between
                }
            case .between:
                switch byte {
                case UInt8(ascii: "]"): phase = .after
                case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09: break
                default:
                    phase = .inRow
                    row.removeAll(keepingCapacity: true)
                    rowLength = 0
                    depth = 0
                    take(byte, body)
                }
            case .inRow:
                take(byte, body)
            }
        }
    }

    private mutating func skipString(_ byte: UInt8) {
        if escaped {
            escaped = false
        } else if byte == UInt8(ascii: "\\") {
            escaped = true
        } else if byte == UInt8(ascii: "\"") {
            inString = false
        }
    }

    private mutating func take(_ byte: UInt8, _ body: (Row) -> Void) {
        // A row as written never holds a raw line break (JSON escapes it in strings): one inside a
        // row means the row was cut there. It ends, bad, and the next line starts afresh.
        if byte == 0x0A, depth > 0 || inString {
            inString = false
            escaped = false
            end(body, cut: true)
            return
        }
        if inString {
            keep(byte)
            skipString(byte)
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            guard depth > 0 else {
                // The array's own `]` right after a bare value: the value ends, and the array.
                end(body)
                phase = .after
                return
            }
            depth -= 1
            keep(byte)
            if depth == 0 { end(body) }
            return
        case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
            // A bare value (a number, `null`) ends at the separator outside any container.
            if depth == 0 {
                end(body)
                return
            }
        default: break
        }
        keep(byte)
    }

    private mutating func keep(_ byte: UInt8) {
        rowLength += 1
        if rowLength <= maximumRowBytes { row.append(byte) }
    }

    private mutating func end(_ body: (Row) -> Void, cut: Bool = false) {
        let value: Result<JSONValue, Skipped>
        if cut {
            value = .failure(Skipped("it ends with its line, unfinished"))
        } else if rowLength > maximumRowBytes {
            value = .failure(Skipped("it is \(rowLength) bytes long, more than a row may be (\(maximumRowBytes))"))
        } else {
            do {
                value = .success(try JSONValue.parse(row))
            } catch {
                value = .failure(Skipped("it is not JSON (\(error))"))
            }
        }
        body(Row(index: index, value: value))
        index += 1
        phase = .between
        depth = 0
        row.removeAll(keepingCapacity: true)
        rowLength = 0
    }
}
