import LocationValues

extension ControlReply {
    /// Events a `watch` stream will not carry for this peer, and why:
    /// `"withheld":{"events":["location"],"code":"not-authorized","message":"…"}`
    /// in the `watching` reply (see `Disclosure.withheldNote(group:)`).
    public struct Withheld: Sendable, Hashable {
        /// The `event` words left out.
        public var events: [String]
        /// The error code that would have refused them (`not-authorized`).
        public var code: String
        /// A sentence: who gets them and what the stream carries.
        public var message: String

        /// A note from its parts.
        public init(events: [String], code: String, message: String) {
            self.events = events
            self.code = code
            self.message = message
        }

        /// The `withheld` object.
        public var json: JSONValue {
            .object([
                ("events", .array(events.map(JSONValue.string))), ("code", .string(code)),
                ("message", .string(message)),
            ])
        }

        /// Reads what `json` writes.
        public init(json value: JSONValue) throws(ControlDecodeError) {
            let f = FieldReader(value: value, context: "withheld")
            do throws(FieldReader.FieldError) {
                let list = try f.array("events")
                events = list.compactMap(\.stringValue)
                code = try f.string("code")
                message = try f.text("message")
            } catch {
                throw error.decodeError
            }
        }
    }

    /// The reply to `watch`, sent before the first event, with the note of
    /// what this peer's stream leaves out.
    public static func watching(id: JSONValue?, client: String?, withheld: Withheld?) -> ControlReply {
        var fields: [(String, JSONValue)] = [("watching", client.map(JSONValue.string) ?? "all")]
        if let withheld { fields.append(("withheld", withheld.json)) }
        return .ok(id: id, fields: fields)
    }

    /// The note in a `watching` reply, if it has one.
    public func withheld() throws(ControlDecodeError) -> Withheld? {
        guard let value = self["withheld"], value != .null else { return nil }
        return try Withheld(json: value)
    }
}
