import LocationValues

/// How a client's coordinate log is being written, for `status` (#8: logging
/// never stops silently): lines held in memory now because writing fails,
/// lines lost since the daemon started (dropped past the hold limit, closed
/// unwritten, or made while the log could not be opened), and while writing
/// fails the error and since when. Never a coordinate.
public struct LogWriteStatus: Sendable, Hashable {
    /// The log's path.
    public var path: String
    /// Whether the log is open (false: it could not be opened; nothing is written until SIGHUP opens it).
    public var open: Bool
    /// Lines written since the daemon started.
    public var written: Int
    /// Lines held in memory now, waiting to be written.
    public var held: Int
    /// Lines lost since the daemon started.
    public var lost: Int
    /// While writing (or opening) fails: the latest error, e.g. `write /var/log/x.jsonl: No space left on device`.
    public var error: String?
    /// While writing fails: when it began (UTC seconds), if known.
    public var since: Double?

    /// A status from its parts.
    public init(
        path: String, open: Bool = true, written: Int = 0, held: Int = 0, lost: Int = 0, error: String? = nil,
        since: Double? = nil
    ) {
        self.path = path
        self.open = open
        self.written = written
        self.held = held
        self.lost = lost
        self.error = error
        self.since = since
    }

    /// Whether writing fails now (or the log is not open).
    public var failing: Bool { error != nil || !open }

    /// `{"path":…,"open":true,"written":…,"held":…,"lost":…,"failing":…,"error":…,"since":…}`;
    /// `error` and `since` only while failing. `failing` is derived and not read back.
    public var json: JSONValue { .object(jsonMembers) }

    /// The members of `json`, for an object that carries them with more (the `log` event).
    public var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("path", .string(path)), ("open", .bool(open)), ("written", .number(Double(written))),
            ("held", .number(Double(held))), ("lost", .number(Double(lost))), ("failing", .bool(failing)),
        ]
        if let error { members.append(("error", .string(error))) }
        if let since, UTCTime.isWritable(since) { members.append(("since", .string(UTCTime.format(since)))) }
        return members
    }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "logWrite")
        do throws(FieldReader.FieldError) {
            self.init(
                path: try f.text("path"), open: try f.optionalBool("open") ?? true,
                written: try f.optionalInt("written") ?? 0, held: try f.optionalInt("held") ?? 0,
                lost: try f.optionalInt("lost") ?? 0, error: try f.optionalString("error"),
                since: try f.optionalTime("since"))
        } catch {
            throw error.decodeError
        }
    }

    /// The `log:` line of `status` while writing fails:
    /// `cannot write /var/log/x.jsonl: No space left on device since 2026-03-14 13:05:01 UTC; 120 lines held in memory, 0 lost`;
    /// `nil` while it works.
    public var failureLine: String? {
        guard failing else { return nil }
        let what = error.map { "cannot \($0)" } ?? "\(path) is not open"
        let when = since.map { " since \(TextFormat.dateTime($0))" } ?? ""
        let heldText = "\(held) line\(held == 1 ? "" : "s") held in memory"
        let advice = open ? "" : "; fixes are not logged until SIGHUP opens it"
        return "\(what)\(when); \(heldText), \(lost) lost\(advice)"
    }
}
