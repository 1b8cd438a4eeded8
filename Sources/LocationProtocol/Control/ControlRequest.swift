import LocationValues

/// One request on the control socket (docs/protocol.md, "Requests"): `{"id":7,"cmd":"authorize","client":"logger","status":"never"}`.
///
/// The same vocabulary serves the socket, `locationctl` and replay events
/// (docs/protocol.md, "Replay events"). `decode` never throws on bad input: every malformed shape
/// becomes a `ProtocolError` the server replies with, and the connection
/// stays usable.
public struct ControlRequest: Sendable, Hashable {
    /// What is asked.
    public enum Operation: Sendable, Hashable {
        /// The protocol version and the daemon's version.
        case hello
        /// The engine's state, for every client or one.
        case status(client: String?)
        /// The pending prompts.
        case prompts
        /// Turn the connection into an event stream, for every client or one.
        case watch(client: String?)
        /// The access report, for every client the peer may see or one, from `since` seconds ago (default: all kept).
        case report(client: String?, since: Double?)
        /// A state-changing command for the engine.
        case command(Command)

        /// The `cmd` word.
        public var word: CommandWord {
            switch self {
            case .hello: .hello
            case .status: .status
            case .prompts: .prompts
            case .watch: .watch
            case .report: .report
            case .command(let command): command.word
            }
        }

        /// The `cmd` word as text.
        public var name: String { word.rawValue }

        /// Who may send it: anyone for reading, root or the socket group for changing.
        public var access: ControlAccess {
            if case .command = self { return .change }
            return .read
        }

        /// The client it names, if any.
        public var client: String? {
            switch self {
            case .hello, .prompts: nil
            case .status(let client), .watch(let client), .report(let client, _): client
            case .command(let command): command.client
            }
        }
    }

    /// Echoed in the reply: any JSON scalar (number, string, Bool, `null`), or absent.
    public var id: JSONValue?
    /// What is asked.
    public var operation: Operation

    /// A request from its parts.
    public init(id: JSONValue? = nil, _ operation: Operation) {
        self.id = id
        self.operation = operation
    }

    /// Who may send it.
    public var access: ControlAccess { operation.access }

    /// Every `cmd` word, in the order error messages list them.
    public static let commandNames = CommandWord.allCases.map(\.rawValue)

    /// The `cmd` words of read-only requests.
    public static let readOnlyCommandNames = CommandWord.allCases.filter { $0.side == .read }.map(\.rawValue)

    /// The request as a JSON object, `id` first.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let id { members.append(("id", id)) }
        members.append(("cmd", .string(operation.name)))
        members.append(contentsOf: Self.fields(of: operation))
        return .object(members)
    }

    /// The request line: compact JSON ending in `\n`.
    public func line() -> String { json.serialized + "\n" }

    /// The fields after `cmd` (what replay events and `locationctl` send).
    static func fields(of operation: Operation) -> [(String, JSONValue)] {
        switch operation {
        case .hello, .prompts: return []
        case .status(let client), .watch(let client):
            return client.map { [("client", .string($0))] } ?? []
        case .report(let client, let since):
            var fields: [(String, JSONValue)] = client.map { [("client", .string($0))] } ?? []
            if let since { fields.append(("since", .number(since))) }
            return fields
        case .command(let command):
            switch command {
            case .services(let on): return [("state", on ? "on" : "off")]
            case .authorize(let client, let status):
                return [("client", .string(client)), ("status", .string(status.rawValue))]
            case .accuracy(let client, let full):
                return [("client", .string(client)), ("accuracy", full ? "full" : "reduced")]
            case .request(let client, let kind):
                return [("client", .string(client)), ("kind", .string(kind.rawValue))]
            case .answer(let client, let answer, let precise):
                var fields: [(String, JSONValue)] = [("client", .string(client)), ("answer", .string(answer.rawValue))]
                if let precise { fields.append(("precise", .bool(precise))) }
                return fields
            case .share(let client), .reset(let client), .start(let client), .stop(let client):
                return [("client", .string(client))]
            case .requestFullAccuracy(let client, let purpose):
                return [("client", .string(client)), ("purpose", .string(purpose))]
            case .session(let client, let inUse):
                return [("client", .string(client)), ("state", inUse ? "begin" : "end")]
            case .locate(let client, let timeout):
                var fields: [(String, JSONValue)] = [("client", .string(client))]
                if let timeout { fields.append(("timeout", .number(timeout))) }
                return fields
            }
        }
    }
}
