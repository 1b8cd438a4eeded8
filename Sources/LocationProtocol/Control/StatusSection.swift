import LocationValues

/// One output face's part of a `status` reply (the MQTT brokers, the program
/// sockets, …): its members of the status object, the part about one client,
/// and what a reader of a lower tier may see of it. `StatusReport` writes each
/// section's members after its own, in the order of the faces; a new face
/// adds a section type with its reader (`read`), one line in `StatusSections.kinds` for
/// `locationctl` to read it back, and its terminal text beside it in LocationTools
/// (`StatusSectionText`), without touching the others.
public protocol StatusSection: Sendable {
    /// The members this section adds to the status object, in order; none when it has nothing to say.
    var jsonMembers: [(String, JSONValue)] { get }
    /// The section with `client`'s part only (`locationctl status CLIENT`).
    func only(client: String) -> Self
    /// The section as `disclosure`'s reader may see it; `nil` hides it whole. No default: a
    /// section says what it shows (`Disclosure`: built from an allow list).
    func seen(through disclosure: Disclosure) -> Self?
    /// Reads the section's members back from a status object (`nil`: not in it).
    static var read: StatusSections.Reader { get }
}

/// The sections of a status reply, in order; equal when they write the same JSON.
public struct StatusSections: Sendable, Hashable {
    /// Reads a status object's members back into a section (`nil`: not in that object).
    public typealias Reader = @Sendable (JSONValue) throws(ControlDecodeError) -> (any StatusSection)?

    /// The sections `StatusReport(json:)` reads back, in the order the daemon writes them: a
    /// face's section is one line here.
    public static let kinds: [any StatusSection.Type] = [
        MQTTSection.self,
        ProgramsSection.self,
        GeoClueSection.self,
    ]

    /// The sections.
    public var list: [any StatusSection]

    /// Sections in order.
    public init(_ list: [any StatusSection] = []) {
        self.list = list
    }

    /// Every section's members, in order.
    public var jsonMembers: [(String, JSONValue)] { list.flatMap(\.jsonMembers) }

    /// The first section of type `type`.
    public subscript<Section: StatusSection>(_ type: Section.Type) -> Section? {
        get { list.lazy.compactMap { $0 as? Section }.first }
        set {
            let index = list.firstIndex { $0 is Section }
            switch (index, newValue) {
            case (let index?, let section?): list[index] = section
            case (let index?, nil): list.remove(at: index)
            case (nil, let section?): list.append(section)
            case (nil, nil): break
            }
        }
    }

    /// The first section of type `type`, or `value` (set: replaces that section, or appends it).
    public subscript<Section: StatusSection>(_ type: Section.Type, default value: @autoclosure () -> Section) -> Section {
        get { self[type] ?? value() }
        set { self[type] = newValue }
    }

    /// Each section narrowed to `client`.
    public func only(client: String) -> StatusSections {
        StatusSections(list.map { $0.only(client: client) })
    }

    /// Each section as `disclosure`'s reader may see it; hidden ones left out.
    public func seen(through disclosure: Disclosure) -> StatusSections {
        StatusSections(list.compactMap { $0.seen(through: disclosure) })
    }

    /// Reads every section of `kinds` from a status object.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        var list: [any StatusSection] = []
        for kind in Self.kinds {
            if let section = try kind.read(value) { list.append(section) }
        }
        self.list = list
    }

    public static func == (lhs: StatusSections, rhs: StatusSections) -> Bool {
        JSONValue.object(lhs.jsonMembers) == JSONValue.object(rhs.jsonMembers)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(JSONValue.object(jsonMembers))
    }
}
