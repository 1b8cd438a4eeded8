import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem

/// One accepted state change, as a line of `audit.jsonl` (docs/protocol.md, "Audit log"):
///
/// ```
/// {"time":"2026-03-14T12:00:03.000Z","uid":1000,"pid":4242,"cmd":"authorize","client":"logger","args":{"status":"never"},"before":{…},"after":{…}}
/// ```
///
/// `client` is left out for commands that name none (`services`); `args`
/// (the request's other fields) when there are none. `before` and `after`
/// are whatever state the command could change, as the daemon core shows it.
public struct AuditRecord: Sendable, Hashable {
    /// When the change was made (UTC seconds).
    public var time: Double
    /// Who asked for it.
    public var peer: ControlPeer
    /// The `cmd` word.
    public var command: String
    /// The client it concerned, if any.
    public var client: String?
    /// The request's other fields (e.g. `status` of `authorize`), as a JSON object.
    public var arguments: JSONValue
    /// The state before the change.
    public var before: JSONValue
    /// The state after it.
    public var after: JSONValue

    /// A record from its parts.
    public init(
        time: Double, peer: ControlPeer, command: String, client: String?, arguments: JSONValue = .object([]),
        before: JSONValue, after: JSONValue
    ) {
        self.time = time
        self.peer = peer
        self.command = command
        self.client = client
        self.arguments = arguments
        self.before = before
        self.after = after
    }

    /// The record of `request` from `peer`, at `time` (default: now).
    public init(time: Double = SystemClock.utc(), peer: ControlPeer, request: ControlRequest, before: JSONValue, after: JSONValue) {
        let arguments = (request.json.objectValue ?? []).filter { !["id", "cmd", "client"].contains($0.0) }
        self.init(
            time: time, peer: peer, command: request.operation.name, client: request.operation.client,
            arguments: .object(arguments), before: before, after: after)
    }

    /// The record as a JSON object, keys in the documented order.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        // Years 1..9999: what ISO 8601 text can say; the wall clock is always in that range.
        if time.isFinite && time > -62_135_596_800 && time < 253_402_300_800 {
            members.append(("time", .string(UTCTime.format(time))))
        }
        members.append(("uid", .number(Double(peer.uid))))
        members.append(("pid", .number(Double(peer.pid))))
        members.append(("cmd", .string(command)))
        if let client { members.append(("client", .string(client))) }
        if let fields = arguments.objectValue, !fields.isEmpty { members.append(("args", arguments)) }
        members.append(("before", before))
        members.append(("after", after))
        return .object(members)
    }

    /// The line: compact JSON ending in `\n`.
    public func line() -> [UInt8] {
        Array((json.serialized + "\n").utf8)
    }
}
