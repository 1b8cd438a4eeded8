import LocationValues

/// A client's log began to fail or works again: what a `log` event on `watch` carries
/// (#8: logging never stops silently). Sent once when writing (or opening) the log starts to
/// fail and once when it works again, with the log's `LogWriteStatus` at that moment — the
/// same numbers `status` shows in `logWrite` — and the sentence the daemon logged. Never a
/// coordinate: the error text, the path and counts only.
///
/// ```
/// {"event":"log","time":"…","client":"logger","path":"/var/log/locationd/logger.jsonl","open":true,
///  "written":120,"held":1,"lost":0,"failing":true,"error":"write …: No space left on device",
///  "since":"…","message":"cannot write … (No space left on device): no partial line is left in it; …"}
/// ```
public struct LogWriteChange: Sendable, Hashable {
    /// The client whose log it is.
    public var client: String
    /// How the log is written now (`failing` says which way it changed).
    public var status: LogWriteStatus
    /// The sentence the daemon logged about it.
    public var message: String

    /// A change from its parts.
    public init(client: String, status: LogWriteStatus, message: String) {
        self.client = client
        self.status = status
        self.message = message
    }

    /// `client`, the `LogWriteStatus` members, `message`.
    public var jsonMembers: [(String, JSONValue)] {
        [("client", .string(client))] + status.jsonMembers + [("message", .string(message))]
    }

    /// Reads what `jsonMembers` writes (in an event object).
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "log")
        let status = try LogWriteStatus(json: value)
        do throws(FieldReader.FieldError) {
            self.init(client: try f.string("client"), status: status, message: try f.optionalString("message") ?? "")
        } catch {
            throw error.decodeError
        }
    }
}
