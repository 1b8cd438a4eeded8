import LocationValues

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

extension ControlReply {
    /// A command's reply while the state cannot be saved (#32): `"saved":false` and the
    /// `warning` of `status` after the outcome's fields; an error reply, or any reply while
    /// saving works, is returned as it is.
    public func noting(_ status: StateSaveStatus) -> ControlReply {
        guard case .ok(let fields) = outcome, let warning = status.warning else { return self }
        return .ok(id: id, fields: fields + [("saved", .bool(false)), ("warning", .string(warning))])
    }

    /// The `warning` of a command's reply: what was not saved, or `nil` when all is saved.
    public var saveWarning: String? {
        guard self["saved"]?.boolValue == false else { return nil }
        return self["warning"]?.stringValue ?? "not saved: the daemon could not save its state"
    }
}
