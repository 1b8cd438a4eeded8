import LocationValues

extension Command {
    /// The command as words: its `cmd` word, then its fields' values in `CommandWord.fields`
    /// order, e.g. `authorize logger while-using` — how a status's `suggestion` (the next step)
    /// travels, and the arguments `locationctl` takes for it.
    public var words: [String] {
        [name]
            + ControlRequest.fields(of: .command(self)).map { _, value in
                switch value {
                case .string(let text): text
                case .bool(let flag): flag ? "true" : "false"
                case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
                case .null, .array, .object: value.serialized
                }
            }
    }

    /// Reads what `words` writes, through the protocol's own decoding.
    public init(words: [String]) throws(ControlDecodeError) {
        guard let first = words.first, let word = CommandWord(rawValue: first), word.side != .read,
            words.count - 1 <= word.fields.count
        else {
            throw ControlDecodeError("\"\(words.joined(separator: " "))\" is not a command")
        }
        let members = zip(word.fields, words.dropFirst()).map { field, text -> (String, JSONValue) in
            switch field {
            case "precise": (field, text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text))
            case "timeout", "since": (field, Double(text).map(JSONValue.number) ?? .string(text))
            default: (field, .string(text))
            }
        }
        switch ControlRequest.decode(.object([("cmd", .string(first))] + members)) {
        case .success(let request):
            guard case .command(let command) = request.operation else {
                throw ControlDecodeError("\"\(words.joined(separator: " "))\" is not a command")
            }
            self = command
        case .failure(let error):
            throw ControlDecodeError("\"\(words.joined(separator: " "))\": \(error.message)")
        }
    }
}
