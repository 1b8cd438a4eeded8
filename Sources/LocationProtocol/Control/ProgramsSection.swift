import LocationValues

/// The program sockets' section of a `status` reply: the programs connected
/// now (`programs`) and, per client, what its sockets turned away
/// (`programCounts`); each absent when empty. Who runs a program (pid, uid,
/// name) reaches a privileged reader only (`Disclosure`).
public struct ProgramsSection: StatusSection, Hashable {
    /// The programs connected now, in the order they connected.
    public var programs: [ConnectedProgram]
    /// Per client, what its program sockets turned away (only clients with any).
    public var counts: [String: ProgramCounts]

    /// The section of `programs` and `counts`.
    public init(programs: [ConnectedProgram] = [], counts: [String: ProgramCounts] = [:]) {
        self.programs = programs
        self.counts = counts
    }

    /// `"programs":[…]`, `"programCounts":{CLIENT:{…}}` (clients in name order), each when not empty.
    public var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if !programs.isEmpty { members.append(("programs", .array(programs.map(\.json)))) }
        if !counts.isEmpty {
            members.append(("programCounts", .object(counts.keys.sorted().map { ($0, counts[$0]?.json ?? .null) })))
        }
        return members
    }

    /// `client`'s programs and counts only.
    public func only(client: String) -> ProgramsSection {
        ProgramsSection(programs: programs.filter { $0.client == client }, counts: counts.filter { $0.key == client })
    }

    /// Whole for a privileged reader; for anyone else each program without who runs it.
    public func seen(through disclosure: Disclosure) -> ProgramsSection? {
        disclosure.tier == .privileged ? self : ProgramsSection(programs: programs.map(Disclosure.anonymous), counts: counts)
    }

    /// Reads `programs` and `programCounts` from a status object.
    public static let read: StatusSections.Reader = { value throws(ControlDecodeError) in
        let list = value["programs"]?.arrayValue
        let countMembers = value["programCounts"]?.objectValue
        guard list != nil || countMembers != nil else { return nil }
        var section = ProgramsSection()
        for item in list ?? [] { section.programs.append(try ConnectedProgram(json: item)) }
        for (client, counts) in countMembers ?? [] { section.counts[client] = try ProgramCounts(json: counts) }
        return section
    }
}
