import LocationValues

/// One source in `status` (`sources`, docs/protocol.md): its name, how people name its endpoint,
/// its state as it last reported it, its outage while it is not connected, and its counts.
/// Counts and states only: never a coordinate.
public struct SourceStatus: Sendable, Hashable {
    /// `default` for `[source]`, NAME for `[source.NAME]`.
    public var name: String
    /// `gpsd 127.0.0.1:2947` or `nmea /dev/ttyACM0`: as receivers' `source` names it.
    public var description: String
    /// Its state as it last reported it.
    public var state: SourceState
    /// Its attempts and waits so far while it is not connected.
    public var outage: SourceOutage?
    /// What it has read since the start, if it counts.
    public var counts: SourceCounts?

    /// A source's status from its parts.
    public init(name: String, description: String, state: SourceState, outage: SourceOutage? = nil, counts: SourceCounts? = nil) {
        self.name = name
        self.description = description
        self.state = state
        self.outage = outage
        self.counts = counts
    }

    /// `{"name":"default","description":"gpsd 127.0.0.1:2947","state":"fix","outage":{…},"counts":{…}}`.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(name)), ("description", .string(description)), ("state", .string(state.rawValue)),
        ]
        if let outage { members.append(("outage", outage.json)) }
        if let counts { members.append(("counts", counts.json)) }
        return .object(members)
    }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "source")
        do throws(FieldReader.FieldError) {
            self.init(
                name: try f.text("name"), description: try f.optionalString("description") ?? "",
                state: try f.word("state", SourceState.allCases.map(\.rawValue)) { SourceState(rawValue: $0) })
        } catch {
            throw error.decodeError
        }
        if let outage = value["outage"], outage != .null { self.outage = try SourceOutage(json: outage) }
        if let counts = value["counts"], counts != .null { self.counts = try SourceCounts(json: counts) }
    }
}
