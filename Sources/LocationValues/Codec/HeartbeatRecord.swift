/// A heartbeat line of a client's log (`heartbeat = SECONDS`, locationd.conf(5)): written when
/// the client is updating and no fix was logged for that long, saying why — never a position.
/// Readers of logs (`LogRecordStream`) skip it and count it.
public struct HeartbeatRecord: Sendable, Hashable {
    /// Why nothing was logged.
    public enum Why: String, Sendable, Hashable {
        /// Fixes came and the distance filter held them back (the board stands still).
        case distanceFilter = "distance-filter"
        /// The receiver gave no usable fix.
        case noFix = "no-fix"
        /// The client is not in use, and its authorization (while using) lets no fix through.
        case notInUse = "not-in-use"
        /// Fixes were not delivered for another reason (`status` says which).
        case notDelivered = "not-delivered"
    }

    /// When it was written (UTC seconds).
    public var time: Double
    /// Why nothing was logged.
    public var why: Why
    /// Fixes held back by the distance filter since the last line of the log.
    public var heldBack: Int
    /// The receiver's state then (`fix`, `no-fix`, `connecting`, …).
    public var receiver: String

    /// A record from its parts.
    public init(time: Double, why: Why, heldBack: Int, receiver: String) {
        self.time = time
        self.why = why
        self.heldBack = heldBack
        self.receiver = receiver
    }

    /// What every heartbeat line starts with, and how a reader tells one.
    public static let prefix = Array(#"{"heartbeat":true,"#.utf8)

    /// The line, with its `\n`: `{"heartbeat":true,"time":"…","why":"distance-filter","heldBack":12,"receiver":"fix"}`.
    public var line: [UInt8] {
        var out = Self.prefix
        out += Array(#""time":""#.utf8)
        ByteText.appendUTC(time, fractionDigits: 3, to: &out)
        out += Array(#"","why":""#.utf8) + Array(why.rawValue.utf8)
        out += Array(#"","heldBack":"#.utf8) + Array(String(heldBack).utf8)
        out += Array(#","receiver":""#.utf8) + Array(receiver.utf8.filter { $0 != 0x22 && $0 != 0x5C && $0 >= 0x20 })
        out += Array("\"}\n".utf8)
        return out
    }

    /// Whether a log line (without its `\n`) is a heartbeat.
    public static func isHeartbeat(_ line: UnsafeRawBufferPointer) -> Bool {
        line.count >= prefix.count && zip(line, prefix).allSatisfy { $0 == $1 }
    }
}
