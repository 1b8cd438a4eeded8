import LocationValues

extension ClientAuthorization {
    /// `"client"`, `"status"` (effective), `"stored"`, `"once"`, `"provisional"`,
    /// `"accuracy"` (`full`/`reduced`/`temporary-full`), `"purpose"` (with
    /// temporary-full) and `"reason"` (`services-off`/`restricted`, when the
    /// effective status differs from the stored one).
    var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("client", .string(client)), ("status", .string(status.rawValue)), ("stored", .string(stored.rawValue)),
            ("once", .bool(once)), ("provisional", .bool(provisional)), ("accuracy", .string(accuracy.word)),
        ]
        if case .temporaryFull(let purpose) = accuracy { members.append(("purpose", .string(purpose))) }
        if let reason { members.append(("reason", .string(reason.rawValue))) }
        return members
    }

    /// The authorization as a JSON object.
    public var json: JSONValue { .object(jsonMembers) }

    /// Reads the members `jsonMembers` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "authorization")
        do throws(FieldReader.FieldError) {
            let statuses = AuthorizationStatus.allCases.map(\.rawValue)
            let accuracyWord = try f.word("accuracy", ["full", "reduced", "temporary-full"]) { $0 }
            let accuracy: AccuracyAuthorization
            switch accuracyWord {
            case "full": accuracy = .full
            case "reduced": accuracy = .reduced
            default: accuracy = .temporaryFull(purpose: try f.string("purpose"))
            }
            var reason: EffectiveReason?
            if f.has("reason") {
                reason = try f.word("reason", ["services-off", "restricted"]) { EffectiveReason(rawValue: $0) }
            }
            self.init(
                client: try f.string("client"),
                status: try f.word("status", statuses) { AuthorizationStatus(rawValue: $0) },
                stored: try f.word("stored", statuses) { AuthorizationStatus(rawValue: $0) },
                once: try f.optionalBool("once") ?? false,
                provisional: try f.optionalBool("provisional") ?? false,
                accuracy: accuracy, reason: reason)
        } catch {
            throw error.decodeError
        }
    }
}
