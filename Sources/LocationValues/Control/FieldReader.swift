/// Typed access to the members of one JSON object, with sentences that name
/// the field and what it accepts. Decoders map `FieldError` to their own
/// error type (a protocol error, a replay line error, a reply decode error).
package struct FieldReader {
    /// The object's members.
    package let value: JSONValue
    /// What the object is, for messages: `authorize`, `status reply`.
    package let context: String

    /// Reads `value`'s members; `context` names the object in messages.
    package init(value: JSONValue, context: String) {
        self.value = value
        self.context = context
    }

    /// A missing or ill-typed field.
    package struct FieldError: Error {
        package let message: String
        package init(_ message: String) { self.message = message }
    }

    package func has(_ key: String) -> Bool { value[key] != nil }

    /// A required non-empty string.
    package func string(_ key: String, meaning: String = "a non-empty string") throws(FieldError) -> String {
        try required(key, meaning) { $0.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// An optional string: absent or `null` is `nil`; present must be a non-empty string.
    package func optionalString(_ key: String, meaning: String = "a non-empty string") throws(FieldError) -> String? {
        try optional(key, meaning + " when present") { $0.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// Free text that may be empty: absent or `null` is empty.
    package func text(_ key: String) throws(FieldError) -> String {
        try optional(key, "a string", \.stringValue) ?? ""
    }

    /// A required Bool.
    package func bool(_ key: String) throws(FieldError) -> Bool {
        try required(key, "true or false", \.boolValue)
    }

    /// An optional Bool.
    package func optionalBool(_ key: String) throws(FieldError) -> Bool? {
        try optional(key, "true or false", \.boolValue)
    }

    /// A required number.
    package func number(_ key: String) throws(FieldError) -> Double {
        try required(key, "a number", \.numberValue)
    }

    /// An optional number.
    package func optionalNumber(_ key: String) throws(FieldError) -> Double? {
        try optional(key, "a number", \.numberValue)
    }

    /// An optional whole number.
    package func optionalInt(_ key: String) throws(FieldError) -> Int? {
        try optional(key, "a whole number", \.intValue)
    }

    /// A required word from `words`, mapped by `make`.
    package func word<T>(_ key: String, _ words: [String], _ make: (String) -> T?) throws(FieldError) -> T {
        let accepted = words.map { "\"\($0)\"" }.joined(separator: ", ")
        guard let member = value[key] else { throw FieldError("\(context) needs \"\(key)\": one of \(accepted)") }
        guard let s = member.stringValue else {
            throw FieldError("\"\(key)\" of \(context) must be a string: one of \(accepted)")
        }
        guard let result = make(s) else {
            throw FieldError(
                "\"\(key)\" of \(context) cannot be \"\(s)\"; accepted: \(accepted)"
                    + Suggestion.phrase(for: s, among: words))
        }
        return result
    }

    /// A required array.
    package func array(_ key: String) throws(FieldError) -> [JSONValue] {
        try required(key, "an array", \.arrayValue)
    }

    /// A UTC time written as ISO 8601 text; absent or `null` is `nil`.
    package func optionalTime(_ key: String) throws(FieldError) -> Double? {
        try optional(key, "ISO 8601 UTC text like \"2026-03-14T23:50:01.000Z\"") { $0.stringValue.flatMap(UTCTime.parse) }
    }

    /// The member `key` as `convert` reads it: `context needs "key" (meaning)`
    /// when it is absent, `"key" of context must be meaning` when `convert`
    /// refuses it.
    private func required<T>(_ key: String, _ meaning: String, _ convert: (JSONValue) -> T?) throws(FieldError) -> T {
        guard let member = value[key] else { throw FieldError("\(context) needs \"\(key)\" (\(meaning))") }
        guard let converted = convert(member) else { throw FieldError("\"\(key)\" of \(context) must be \(meaning)") }
        return converted
    }

    /// The same for a member that may be absent or `null` (then `nil`).
    private func optional<T>(_ key: String, _ meaning: String, _ convert: (JSONValue) -> T?) throws(FieldError) -> T? {
        guard let member = value[key], member != .null else { return nil }
        guard let converted = convert(member) else { throw FieldError("\"\(key)\" of \(context) must be \(meaning)") }
        return converted
    }

    /// Refuses members not in `allowed`, naming the first stranger.
    package func onlyKeys(_ allowed: [String]) throws(FieldError) {
        guard let members = value.objectValue else { return }
        for (key, _) in members where !allowed.contains(key) {
            let list = allowed.map { "\"\($0)\"" }.joined(separator: ", ")
            throw FieldError(
                "\(context) has no field \"\(key)\"; accepted: \(list)" + Suggestion.phrase(for: key, among: allowed))
        }
    }
}
