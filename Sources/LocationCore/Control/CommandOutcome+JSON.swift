extension CommandOutcome {
    /// The fields of a successful command reply: `changed`, `message`, and
    /// `prompt` when the command opened one.
    public var jsonFields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("changed", .bool(changed)), ("message", .string(message))]
        if let prompt { fields.append(("prompt", prompt.json)) }
        return fields
    }

    /// Reads the fields `jsonFields` writes, from a reply object.
    public init(replyFields value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "command reply")
        var prompt: Prompt?
        if let p = value["prompt"], p != .null { prompt = try Prompt(json: p) }
        do throws(FieldReader.FieldError) {
            self.init(changed: try f.bool("changed"), message: try f.text("message"), prompt: prompt)
        } catch {
            throw error.decodeError
        }
    }
}
