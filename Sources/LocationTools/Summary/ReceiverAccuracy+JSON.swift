import LocationValues

extension ReceiverAccuracy {
    /// The `devices` entry `summary --json` prints (keys in docs/locationctl.1.md), unrounded;
    /// a figure that cannot be computed is left out, as is `device` for records naming none.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let device { members.append(("device", .string(device))) }
        members.append(("fixes", .number(Double(fixes))))
        members.append(("reduced_excluded", .number(Double(reducedExcluded))))
        let figures: [(String, Double?)] = [
            ("cep50_m", cep50), ("cep95_m", cep95), ("cep99_m", cep99), ("drms2_m", drms2), ("bias_m", bias),
            ("bias_bearing_deg", biasBearing), ("hacc_covers", haccCovers), ("vert_p50_m", verticalMedian),
            ("vert_p95_m", vertical95),
        ]
        for (key, value) in figures { if let value { members.append((key, .number(value))) } }
        if fixes > 0 {
            members.append(("span_m", .number(span)))
            members.append(("moved", .bool(moved)))
        }
        return .object(members)
    }

    /// The mean position an entry was measured from, for `--reference mean` (`mean` in its entry).
    var meanJSON: JSONValue { Self.positionJSON(latitude: latitude, longitude: longitude, altitude: altitude) }

    /// `{"lat":…,"lon":…[,"alt":…]}`.
    static func positionJSON(latitude: Double, longitude: Double, altitude: Double?) -> JSONValue {
        var members: [(String, JSONValue)] = [("lat", .number(latitude)), ("lon", .number(longitude))]
        if let altitude { members.append(("alt", .number(altitude))) }
        return .object(members)
    }

    /// The `reference` and `devices` members `summary --json --reference` adds.
    public static func jsonMembers(_ receivers: [ReceiverAccuracy], reference: SurveyReference) -> [(String, JSONValue)] {
        let referenceJSON: JSONValue
        switch reference {
        case .mark(let lat, let lon, let alt): referenceJSON = positionJSON(latitude: lat, longitude: lon, altitude: alt)
        case .mean: referenceJSON = .string("mean")
        }
        let devices = receivers.map { receiver -> JSONValue in
            guard reference == .mean, receiver.fixes > 0, case .object(var members) = receiver.json else { return receiver.json }
            members.append(("mean", receiver.meanJSON))
            return .object(members)
        }
        return [("reference", referenceJSON), ("devices", .array(devices))]
    }
}
