import LocationValues

/// Whether the daemon's saved state (`state.json`: the switch and every decision) is being
/// written, for `status`, the `state` event on `watch`, command replies and systemd (#32: a
/// decision that cannot be kept is never silent). While saving fails: the error, since when,
/// and what a restart now would undo. Never a coordinate.
public struct StateSaveStatus: Sendable, Hashable {
    /// Whether the state as it is now is saved (or will be at the next tick).
    public var ok: Bool
    /// The state file's path.
    public var path: String
    /// While saving fails: the latest error, e.g. `create /var/lib/locationd/.state.json.1a2b: Read-only file system`.
    public var error: String?
    /// While saving fails: when it began (UTC seconds).
    public var since: Double?
    /// While saving fails: what a restart now would undo, one phrase each (`SavedState.undone(bySaved:)`).
    public var unsaved: [String]

    /// A status from its parts.
    public init(ok: Bool, path: String, error: String? = nil, since: Double? = nil, unsaved: [String] = []) {
        self.ok = ok
        self.path = path
        self.error = error
        self.since = since
        self.unsaved = unsaved
    }

    /// `{"ok":…,"path":…,"since":…,"error":…,"unsaved":[…]}`; `since`, `error` and `unsaved` only while failing.
    public var json: JSONValue { .object(jsonMembers) }

    /// The members of `json`, for an object that carries them with more (the `state` event).
    public var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("ok", .bool(ok)), ("path", .string(path))]
        if let since, UTCTime.isWritable(since) { members.append(("since", .string(UTCTime.format(since)))) }
        if let error { members.append(("error", .string(error))) }
        if !ok { members.append(("unsaved", .array(unsaved.map { .string($0) }))) }
        return members
    }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "stateSave")
        do throws(FieldReader.FieldError) {
            self.init(
                ok: try f.bool("ok"), path: try f.optionalString("path") ?? "", error: try f.optionalString("error"),
                since: try f.optionalTime("since"),
                unsaved: (value["unsaved"]?.arrayValue ?? []).compactMap(\.stringValue))
        } catch {
            throw error.decodeError
        }
    }

    /// What a change request's reply says while saving fails: `not saved: ERROR; a restart now
    /// would undo: …; the daemon saves it as soon as PATH can be written again`.
    /// `nil` while saving works.
    public var warning: String? {
        guard !ok else { return nil }
        let cause = error ?? "the state file cannot be written"
        return "not saved: \(cause); \(consequence); the daemon saves it as soon as \(path) can be written again"
    }

    /// The top line of `status` while saving fails; `nil` while it works.
    public var failureLine: String? {
        guard !ok else { return nil }
        let when = since.map { " since \(TextFormat.dateTime($0))" } ?? ""
        return "cannot save the state to \(path)\(when): \(error ?? "unknown error"); \(consequence)"
    }

    /// `a restart now would undo: A; B` (each with what the restart brings back instead), or
    /// that it would lose nothing decided.
    public var consequence: String {
        unsaved.isEmpty
            ? "a restart now would lose no decision (only the reduced-accuracy clocks)"
            : "a restart now would undo: " + unsaved.joined(separator: "; ")
    }
}
