/// When a client's files are cut (`split = hour | day | N min | SIZE`, locationd.conf(5)): at
/// UTC boundaries of the lines' own time, or when a file would grow past a size.
public enum LogSplit: Sendable, Hashable, CustomStringConvertible {
    /// A new file at every hh:00:00 UTC.
    case hour
    /// A new file at every 00:00:00 UTC.
    case day
    /// A new file every N minutes from 00:00 UTC (1...1440; the day's last one ends at midnight).
    case minutes(Int)
    /// A new file before one would grow past this many bytes.
    case size(Int64)

    /// What locationd.conf(5) says a `split` value may be.
    public static let accepted = "hour, day, a number of minutes (1 to 1440) as \"N min\", or a size (at least 4096 bytes; k, M or G for KiB, MiB, GiB)"
    /// The smallest size cut: a file smaller than a few records is no use.
    public static let smallestSize: Int64 = 4096

    /// Reads a `split` value: `hour`, `day`, `15 min`, `15min`, `64M`, `1G`, `500000`; nil if none of these.
    public init?(text: String) {
        let trimmed = String(INIParser.trimmed(Substring(text)))
        switch trimmed {
        case "hour": self = .hour
        case "day": self = .day
        default:
            if trimmed.hasSuffix("min") {
                let number = String(INIParser.trimmed(trimmed.dropLast(3)))
                guard let n = Self.digits(number), (1...1440).contains(n) else { return nil }
                self = .minutes(Int(n))
                return
            }
            var number = trimmed
            var unit: Int64 = 1
            switch trimmed.last {
            case "k", "K": unit = 1 << 10
            case "M": unit = 1 << 20
            case "G": unit = 1 << 30
            default: break
            }
            if unit > 1 { number.removeLast() }
            guard let n = Self.digits(number), n <= Int64.max / unit, n * unit >= Self.smallestSize else { return nil }
            self = .size(n * unit)
        }
    }

    private static func digits(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 15, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }

    /// The value as the config file writes it.
    public var description: String {
        switch self {
        case .hour: "hour"
        case .day: "day"
        case .minutes(let n): "\(n) min"
        case .size(let bytes):
            if bytes % (1 << 30) == 0 { "\(bytes >> 30)G" }
            else if bytes % (1 << 20) == 0 { "\(bytes >> 20)M" }
            else if bytes % (1 << 10) == 0 { "\(bytes >> 10)k" }
            else { "\(bytes)" }
        }
    }

    /// Whether files are cut at clock boundaries (not by size).
    public var isTimed: Bool {
        if case .size = self { return false }
        return true
    }

    /// The period of a clock cut that holds `time` (UTC seconds): from its boundary up to, not
    /// including, the next; nil for a size cut.
    public func period(containing time: Double) -> Range<Double>? {
        let length: Double
        switch self {
        case .hour: length = 3600
        case .day: length = 86_400
        case .minutes(let n): length = Double(n) * 60
        case .size: return nil
        }
        let dayStart = (time / 86_400).rounded(.down) * 86_400
        let start = dayStart + ((time - dayStart) / length).rounded(.down) * length
        return start..<min(start + length, dayStart + 86_400)
    }
}
