import LocationValues

/// The server's answer to one request: `{"id":7,"ok":true,...}` or
/// `{"id":7,"ok":false,"error":{"code":"restricted","message":"..."}}`.
public struct ControlReply: Sendable {
    /// Success with its fields, or an error.
    public enum Outcome: Sendable {
        /// `"ok":true` and these members after it.
        case ok([(String, JSONValue)])
        /// `"ok":false` with a stable code and a sentence.
        case error(code: String, message: String)
    }

    /// The request's `id`, echoed; `nil` when the request had none (the key is then left out).
    public var id: JSONValue?
    /// Success or error.
    public var outcome: Outcome

    /// A reply from its parts.
    public init(id: JSONValue?, outcome: Outcome) {
        self.id = id
        self.outcome = outcome
    }

    /// A success reply with `fields` after `"ok":true`.
    public static func ok(id: JSONValue?, fields: [(String, JSONValue)] = []) -> ControlReply {
        ControlReply(id: id, outcome: .ok(fields))
    }

    /// An error reply.
    public static func error(id: JSONValue?, code: String, message: String) -> ControlReply {
        ControlReply(id: id, outcome: .error(code: code, message: message))
    }

    /// Whether the request succeeded.
    public var isOK: Bool {
        if case .ok = outcome { return true }
        return false
    }

    /// The success fields (empty for an error).
    public var fields: [(String, JSONValue)] {
        if case .ok(let fields) = outcome { return fields }
        return []
    }

    /// A success field by name.
    public subscript(key: String) -> JSONValue? {
        for (k, v) in fields where k == key { return v }
        return nil
    }

    /// The error's code and message, if it is one.
    public var error: (code: String, message: String)? {
        if case .error(let code, let message) = outcome { return (code, message) }
        return nil
    }

    /// The reply as a JSON object: `id` (if any), `ok`, then the fields or `error`.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let id { members.append(("id", id)) }
        switch outcome {
        case .ok(let fields):
            members.append(("ok", true))
            members.append(contentsOf: fields.filter { $0.0 != "id" && $0.0 != "ok" })
        case .error(let code, let message):
            members.append(("ok", false))
            members.append(("error", ["code": .string(code), "message": .string(message)]))
        }
        return .object(members)
    }

    /// The reply line: compact JSON ending in `\n`.
    public func line() -> String { json.serialized + "\n" }

    /// Reads a reply object (the client side).
    public init(json value: JSONValue) throws(ControlDecodeError) {
        guard let members = value.objectValue else { throw ControlDecodeError("a reply must be a JSON object") }
        guard let ok = value["ok"]?.boolValue else { throw ControlDecodeError("a reply needs \"ok\": true or false") }
        id = value["id"]
        if ok {
            outcome = .ok(members.filter { $0.0 != "id" && $0.0 != "ok" })
        } else {
            guard let error = value["error"], let code = error["code"]?.stringValue,
                let message = error["message"]?.stringValue
            else { throw ControlDecodeError("an error reply needs \"error\" with \"code\" and \"message\" strings") }
            outcome = .error(code: code, message: message)
        }
    }
}

extension ControlReply {
    /// The reply to an engine command: `changed`, `message` and the opened
    /// `prompt`, or the command's error.
    public init(id: JSONValue?, result: Result<CommandOutcome, CommandError>) {
        switch result {
        case .success(let outcome): self = .ok(id: id, fields: outcome.jsonFields)
        case .failure(let error): self = .error(id: id, code: error.code.rawValue, message: error.message)
        }
    }

    /// The reply to `prompts`.
    public static func prompts(id: JSONValue?, _ prompts: [Prompt]) -> ControlReply {
        .ok(id: id, fields: [("prompts", .array(prompts.map(\.json)))])
    }

    /// The reply to `status`.
    public static func status(id: JSONValue?, _ report: StatusReport) -> ControlReply {
        .ok(id: id, fields: [("status", report.json)])
    }

    /// The reply to `hello`.
    public static func hello(id: JSONValue?, _ hello: HelloReply) -> ControlReply {
        .ok(id: id, fields: hello.jsonFields)
    }

    /// The command outcome in a successful reply to a command.
    public func commandOutcome() throws(ControlDecodeError) -> CommandOutcome {
        try CommandOutcome(replyFields: .object(fields))
    }

    /// The status in a successful reply to `status`.
    public func statusReport() throws(ControlDecodeError) -> StatusReport {
        guard let value = self["status"] else { throw ControlDecodeError("the status reply has no \"status\" object") }
        return try StatusReport(json: value)
    }

    /// The prompts in a successful reply to `prompts`.
    public func prompts() throws(ControlDecodeError) -> [Prompt] {
        guard let list = self["prompts"]?.arrayValue else {
            throw ControlDecodeError("the prompts reply has no \"prompts\" array")
        }
        var result: [Prompt] = []
        for item in list { result.append(try Prompt(json: item)) }
        return result
    }

    /// The fields of a successful reply to `hello`.
    public func hello() throws(ControlDecodeError) -> HelloReply {
        try HelloReply(replyFields: .object(fields))
    }
}

extension ControlReply {
    /// `unknown-client` for a `status`/`watch` of a name that is not configured,
    /// listing the configured names (and the nearest, for a typo).
    public static func unknownClient(id: JSONValue?, client: String, known: [String]) -> ControlReply {
        let list = known.isEmpty ? "no clients are configured" : "configured: " + known.joined(separator: ", ")
        return .error(
            id: id, code: CommandError.Code.unknownClient.rawValue,
            message: "no client named \"\(client)\"\(Suggestion.phrase(for: client, among: known)); \(list)")
    }
}
