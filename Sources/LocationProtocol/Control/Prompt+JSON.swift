import LocationValues

extension Prompt {
    /// `{"client":…,"kind":…,"text":…,"purpose":…,"answers":[…]}`; `purpose`
    /// only for a full-accuracy prompt; `answers` lists what closes it.
    public var json: JSONValue { .object(jsonMembers) }

    /// The members of `json`, for events that add their own before them.
    var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("client", .string(client)), ("kind", .string(kind.rawValue)), ("text", .string(text)),
        ]
        if let purpose { members.append(("purpose", .string(purpose))) }
        members.append(("answers", .array(answers.map { .string($0.rawValue) })))
        return members
    }

    /// Reads a prompt object (`answers` is implied by `kind` and not read).
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "prompt")
        do throws(FieldReader.FieldError) {
            self.init(
                client: try f.string("client"),
                kind: try f.word("kind", PromptKind.allCases.map(\.rawValue)) { PromptKind(rawValue: $0) },
                text: try f.text("text"),
                purpose: try f.optionalString("purpose"))
        } catch {
            throw error.decodeError
        }
    }
}
