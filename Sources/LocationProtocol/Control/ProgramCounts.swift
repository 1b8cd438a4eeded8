import LocationValues

/// What a client's program sockets turned away, since the daemon started:
/// peers refused at connect time by `allow_users`/`allow_groups`, peers
/// refused because the program server held as many connections as it
/// accepts (`busy`), programs cut off for falling behind (each missed the
/// fixes after its cut-off), and fixes that found the hand-off to the
/// program server full (no program of the client got them). Peers the
/// socket's file mode keeps out never reach the daemon and are not counted.
public struct ProgramCounts: Sendable, Hashable {
    /// Peers refused when they connected, by `allow_users`/`allow_groups`.
    public var refused: Int
    /// Peers refused when they connected by a connection limit (`busy`).
    public var busy: Int
    /// Programs disconnected for falling too far behind.
    public var cutOff: Int
    /// Fixes not handed to the client's programs because the queue to the program server was full.
    public var dropped: Int

    /// Counts from their parts.
    public init(refused: Int = 0, busy: Int = 0, cutOff: Int = 0, dropped: Int = 0) {
        self.refused = refused
        self.busy = busy
        self.cutOff = cutOff
        self.dropped = dropped
    }

    /// `{"refused":1,"busy":0,"cutOff":0,"dropped":0}`.
    public var json: JSONValue {
        .object([
            ("refused", .number(Double(refused))), ("busy", .number(Double(busy))),
            ("cutOff", .number(Double(cutOff))), ("dropped", .number(Double(dropped))),
        ])
    }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "program counts")
        do throws(FieldReader.FieldError) {
            self.init(
                refused: try f.optionalInt("refused") ?? 0, busy: try f.optionalInt("busy") ?? 0,
                cutOff: try f.optionalInt("cutOff") ?? 0, dropped: try f.optionalInt("dropped") ?? 0)
        } catch {
            throw error.decodeError
        }
    }

    /// The counts that are not zero, each with its reason: `refused 1
    /// (allow_users/allow_groups), refused 2 busy (connection limit), cut off
    /// 1 for falling behind, 3 fixes dropped with the program queue full`;
    /// `nothing turned away` when all are zero.
    public var summary: String {
        var parts: [String] = []
        if refused > 0 { parts.append("refused \(refused) (allow_users/allow_groups)") }
        if busy > 0 { parts.append("refused \(busy) busy (connection limit)") }
        if cutOff > 0 { parts.append("cut off \(cutOff) for falling behind") }
        if dropped > 0 { parts.append("\(dropped) fix\(dropped == 1 ? "" : "es") dropped with the program queue full") }
        return parts.isEmpty ? "nothing turned away" : parts.joined(separator: ", ")
    }
}
