import LocationValues

/// One receiver's latest sky view in `status`, with its age.
public struct SkyReport: Sendable, Hashable {
    /// The view (its `device` says which receiver).
    public var view: SkyView
    /// Seconds since it arrived, on the daemon's monotonic clock.
    public var age: Double?

    /// A report from its parts.
    public init(view: SkyView, age: Double?) {
        self.view = view
        self.age = age
    }

    /// The view's members, then `age`.
    var json: JSONValue {
        var members = view.jsonMembers
        if let age, age.isFinite { members.append(("age", .number(age))) }
        return .object(members)
    }

    /// Reads what `json` writes.
    init(json value: JSONValue) throws(ControlDecodeError) {
        let view = try SkyView(json: value)
        do throws(FieldReader.FieldError) {
            self.init(view: view, age: try FieldReader(value: value, context: "sky").optionalNumber("age"))
        } catch {
            throw error.decodeError
        }
    }
}
