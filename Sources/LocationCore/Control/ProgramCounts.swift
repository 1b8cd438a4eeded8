/// What a client's program sockets turned away, since the daemon started:
/// peers refused at connect time (`allow_users`/`allow_groups`), programs
/// cut off for falling behind (each missed the fixes after its cut-off), and
/// fixes that found the hand-off to the program server full (no program of
/// the client got them).
public struct ProgramCounts: Sendable, Hashable {
    /// Peers refused when they connected.
    public var refused: Int
    /// Programs disconnected for falling too far behind.
    public var cutOff: Int
    /// Fixes not handed to the client's programs because the queue to the program server was full.
    public var dropped: Int

    /// Counts from their parts.
    public init(refused: Int = 0, cutOff: Int = 0, dropped: Int = 0) {
        self.refused = refused
        self.cutOff = cutOff
        self.dropped = dropped
    }

    /// `{"refused":1,"cutOff":0,"dropped":0}`.
    public var json: JSONValue {
        .object([
            ("refused", .number(Double(refused))), ("cutOff", .number(Double(cutOff))),
            ("dropped", .number(Double(dropped))),
        ])
    }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "program counts")
        do throws(FieldReader.FieldError) {
            self.init(
                refused: try f.optionalInt("refused") ?? 0, cutOff: try f.optionalInt("cutOff") ?? 0,
                dropped: try f.optionalInt("dropped") ?? 0)
        } catch {
            throw error.decodeError
        }
    }

    /// `refused 1 (allow_users/allow_groups), cut off for falling behind 0, dropped 0`.
    public var summary: String {
        var text = "refused \(refused) (allow_users/allow_groups), cut off for falling behind \(cutOff)"
        if dropped > 0 { text += ", fixes dropped with the program queue full \(dropped)" }
        return text
    }
}
