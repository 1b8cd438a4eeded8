/// Typed access to the members of one JSON object, with sentences that name
/// the field and what it accepts. Decoders map `FieldError` to their own
/// error type (a protocol error, a replay line error, a reply decode error).
struct FieldReader {
    /// The object's members.
    let value: JSONValue
    /// What the object is, for messages: `authorize`, `status reply`.
    let context: String

    /// A missing or ill-typed field.
    struct FieldError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    func has(_ key: String) -> Bool { value[key] != nil }

    /// A required non-empty string.
    func string(_ key: String, meaning: String = "a non-empty string") throws(FieldError) -> String {
        guard let member = value[key] else { throw FieldError("\(context) needs \"\(key)\" (\(meaning))") }
        guard let s = member.stringValue, !s.isEmpty else {
            throw FieldError("\"\(key)\" of \(context) must be \(meaning)")
        }
        return s
    }

    /// An optional string: absent or `null` is `nil`; present must be a non-empty string.
    func optionalString(_ key: String, meaning: String = "a non-empty string") throws(FieldError) -> String? {
        guard let member = value[key], member != .null else { return nil }
        guard let s = member.stringValue, !s.isEmpty else {
            throw FieldError("\"\(key)\" of \(context) must be \(meaning) when present")
        }
        return s
    }

    /// Free text that may be empty: absent or `null` is empty.
    func text(_ key: String) throws(FieldError) -> String {
        guard let member = value[key], member != .null else { return "" }
        guard let s = member.stringValue else { throw FieldError("\"\(key)\" of \(context) must be a string") }
        return s
    }

    /// A required Bool.
    func bool(_ key: String) throws(FieldError) -> Bool {
        guard let member = value[key] else { throw FieldError("\(context) needs \"\(key)\" (true or false)") }
        guard let b = member.boolValue else { throw FieldError("\"\(key)\" of \(context) must be true or false") }
        return b
    }

    /// An optional Bool.
    func optionalBool(_ key: String) throws(FieldError) -> Bool? {
        guard let member = value[key], member != .null else { return nil }
        guard let b = member.boolValue else { throw FieldError("\"\(key)\" of \(context) must be true or false") }
        return b
    }

    /// A required number.
    func number(_ key: String) throws(FieldError) -> Double {
        guard let member = value[key] else { throw FieldError("\(context) needs \"\(key)\" (a number)") }
        guard let n = member.numberValue else { throw FieldError("\"\(key)\" of \(context) must be a number") }
        return n
    }

    /// An optional number.
    func optionalNumber(_ key: String) throws(FieldError) -> Double? {
        guard let member = value[key], member != .null else { return nil }
        guard let n = member.numberValue else { throw FieldError("\"\(key)\" of \(context) must be a number") }
        return n
    }

    /// An optional whole number.
    func optionalInt(_ key: String) throws(FieldError) -> Int? {
        guard let member = value[key], member != .null else { return nil }
        guard let n = member.intValue else { throw FieldError("\"\(key)\" of \(context) must be a whole number") }
        return n
    }

    /// A required word from `words`, mapped by `make`.
    func word<T>(_ key: String, _ words: [String], _ make: (String) -> T?) throws(FieldError) -> T {
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
    func array(_ key: String) throws(FieldError) -> [JSONValue] {
        guard let member = value[key] else { throw FieldError("\(context) needs \"\(key)\" (an array)") }
        guard let a = member.arrayValue else { throw FieldError("\"\(key)\" of \(context) must be an array") }
        return a
    }

    /// A UTC time written as ISO 8601 text; absent or `null` is `nil`.
    func optionalTime(_ key: String) throws(FieldError) -> Double? {
        guard let member = value[key], member != .null else { return nil }
        guard let s = member.stringValue, let t = UTCTime.parse(s) else {
            throw FieldError("\"\(key)\" of \(context) must be ISO 8601 UTC text like \"2026-03-14T23:50:01.000Z\"")
        }
        return t
    }

    /// Refuses members not in `allowed`, naming the first stranger.
    func onlyKeys(_ allowed: [String]) throws(FieldError) {
        guard let members = value.objectValue else { return }
        for (key, _) in members where !allowed.contains(key) {
            let list = allowed.map { "\"\($0)\"" }.joined(separator: ", ")
            throw FieldError(
                "\(context) has no field \"\(key)\"; accepted: \(list)" + Suggestion.phrase(for: key, among: allowed))
        }
    }
}
