import LocationValues

extension ControlRequest {
    /// Decodes one request line (a trailing `\n` or `\r\n` is fine).
    ///
    /// Malformed JSON, a non-object, a non-scalar `id` or a missing `cmd` is
    /// `bad-request`; an unknown `cmd` is `unknown-command`; a missing,
    /// ill-typed, unknown or out-of-range field is `invalid-argument`; more
    /// than `ControlProtocol.maximumLineLength` bytes is `too-long`. The
    /// error carries the request's `id` whenever it could be read.
    public static func decode(_ line: some Collection<UInt8>) -> Result<ControlRequest, ProtocolError> {
        var bytes = Array(line)
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        guard bytes.count <= ControlProtocol.maximumLineLength else { return .failure(.tooLong()) }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            return .failure(
                ProtocolError(
                    .badRequest,
                    "request is not valid JSON (\(error)); send one JSON object per line, e.g. {\"id\":1,\"cmd\":\"hello\"}"
                ))
        }
        return decode(value)
    }

    /// Decodes one request line given as text.
    public static func decode(_ line: String) -> Result<ControlRequest, ProtocolError> {
        decode(Array(line.utf8))
    }

    /// Decodes a parsed request object. `extraKeys` are tolerated and ignored
    /// (replay events use `at`).
    public static func decode(_ value: JSONValue, extraKeys: [String] = []) -> Result<ControlRequest, ProtocolError> {
        guard value.objectValue != nil else {
            return .failure(
                ProtocolError(.badRequest, "a request must be a JSON object, e.g. {\"id\":1,\"cmd\":\"status\"}"))
        }
        var id: JSONValue?
        if let member = value["id"] {
            switch member {
            case .null, .bool, .number, .string: id = member
            case .array, .object:
                return .failure(ProtocolError(.badRequest, "\"id\" must be a number, a string, true/false or null"))
            }
        }
        let accepted = commandNames.joined(separator: ", ")
        guard let cmdValue = value["cmd"] else {
            return .failure(ProtocolError(.badRequest, "request needs \"cmd\", one of: \(accepted)", id: id))
        }
        guard let cmd = cmdValue.stringValue else {
            return .failure(ProtocolError(.badRequest, "\"cmd\" must be a string, one of: \(accepted)", id: id))
        }
        guard let word = CommandWord(rawValue: cmd) else {
            return .failure(
                ProtocolError(
                    .unknownCommand,
                    "unknown command \"\(cmd)\"\(Suggestion.phrase(for: cmd, among: commandNames)); accepted: \(accepted)",
                    id: id))
        }
        let fields = FieldReader(value: value, context: cmd)
        do throws(FieldReader.FieldError) {
            let operation = try operation(word, fields)
            try fields.onlyKeys(["id", "cmd"] + word.fields + extraKeys)
            return .success(ControlRequest(id: id, operation))
        } catch {
            return .failure(ProtocolError(.invalidArgument, error.message, id: id))
        }
    }

    /// The operation `word` names, from its fields (`word.fields`).
    private static func operation(_ word: CommandWord, _ f: FieldReader) throws(FieldReader.FieldError) -> Operation {
        func client() throws(FieldReader.FieldError) -> String {
            try f.string("client", meaning: "the name of a configured client")
        }
        func optionalClient() throws(FieldReader.FieldError) -> String? {
            try f.optionalString("client", meaning: "the name of a configured client")
        }
        switch word {
        case .hello: return .hello
        case .prompts: return .prompts
        case .status: return .status(client: try optionalClient())
        case .watch: return .watch(client: try optionalClient())
        case .report:
            let client = try optionalClient()
            guard let since = try f.optionalNumber("since") else { return .report(client: client, since: nil) }
            guard since > 0, since <= 366 * 86_400 else {
                throw FieldReader.FieldError("since must be a number of seconds from 1 to 31622400 (366 days)")
            }
            return .report(client: client, since: since)
        case .services:
            let on = try f.word("state", ["on", "off"]) { $0 == "on" ? true : $0 == "off" ? false : nil }
            return .command(.services(on: on))
        case .authorize:
            let words = AuthorizationStatus.allCases.filter { $0 != .restricted }.map(\.rawValue)
            let status = try f.word("status", words) { words.contains($0) ? AuthorizationStatus(rawValue: $0) : nil }
            return .command(.authorize(client: try client(), status: status))
        case .accuracy:
            let full = try f.word("accuracy", ["full", "reduced"]) { $0 == "full" ? true : $0 == "reduced" ? false : nil }
            return .command(.accuracy(client: try client(), full: full))
        case .request:
            let kind = try f.word("kind", RequestKind.allCases.map(\.rawValue)) { RequestKind(rawValue: $0) }
            return .command(.request(client: try client(), kind: kind))
        case .answer:
            let answer = try f.word("answer", Answer.allCases.map(\.rawValue)) { Answer(rawValue: $0) }
            let precise = try f.optionalBool("precise")
            return .command(.answer(client: try client(), answer: answer, precise: precise))
        case .share: return .command(.share(client: try client()))
        case .reset: return .command(.reset(client: try client()))
        case .start: return .command(.start(client: try client()))
        case .stop: return .command(.stop(client: try client()))
        case .requestFullAccuracy:
            let purpose = try f.string("purpose", meaning: "a purpose key from the client's config (purpose.KEY)")
            return .command(.requestFullAccuracy(client: try client(), purpose: purpose))
        case .session:
            let inUse = try f.word("state", ["begin", "end"]) { $0 == "begin" ? true : $0 == "end" ? false : nil }
            return .command(.session(client: try client(), inUse: inUse))
        case .locate:
            let timeout = try f.optionalNumber("timeout")
            if let timeout, !(timeout > 0 && timeout <= maximumLocateTimeout) {
                throw FieldReader.FieldError(
                    "\"timeout\" of locate must be a number of seconds above 0 and at most \(Int(maximumLocateTimeout))")
            }
            return .command(.locate(client: try client(), timeout: timeout))
        }
    }

    /// The longest `locate` timeout accepted, in seconds (a day).
    public static let maximumLocateTimeout: Double = 86_400
}
