import LocationValues

/// One line from the daemon as `locationctl` reads it: a reply or, on a
/// watching connection, an event.
public enum ServerMessage: Sendable {
    /// A reply (has `"ok"`).
    case reply(ControlReply)
    /// An event (has `"event"`).
    case event(ControlEvent)

    /// Decodes one line (a trailing newline is fine).
    public static func decode(_ line: some Collection<UInt8>) throws(ControlDecodeError) -> ServerMessage {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            throw ControlDecodeError("not JSON (\(error))")
        }
        if value["event"] != nil { return .event(try ControlEvent(json: value)) }
        if value["ok"] != nil { return .reply(try ControlReply(json: value)) }
        throw ControlDecodeError("a line that is neither a reply (\"ok\") nor an event (\"event\")")
    }

    /// Decodes one line given as text.
    public static func decode(_ line: String) throws(ControlDecodeError) -> ServerMessage {
        try decode(Array(line.utf8))
    }
}
