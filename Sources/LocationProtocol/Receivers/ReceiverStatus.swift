import LocationValues

/// One receiver in `status` (docs/protocol.md, "status"): its name, whether
/// `best` clients follow it, its latest fix's mode and estimate, how long ago it
/// gave a usable fix, how many fixes it gave, its time to first fix (TTFF), the
/// source that brought it, and the clients that follow it.
/// No coordinate: what a receiver says about its quality is for every reader.
public struct ReceiverStatus: Sendable, Hashable {
    /// How a receiver stands.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// `best` clients follow it.
        case followed
        /// It gives usable fixes; nobody follows it for `best`.
        case standby
        /// No usable fix for `failover` seconds or more.
        case silent
    }

    /// Its path as gpsd names it ("" for an unnamed receiver).
    public var device: String
    /// How it stands.
    public var state: State
    /// Its latest usable fix's quality; `nil` once it reports no fix.
    public var quality: ReceiverQuality?
    /// Seconds since its last usable fix (the daemon's monotonic clock).
    public var lastFixAge: Double?
    /// Fixes (epochs, usable or not) it gave since the daemon started.
    public var fixes: Int
    /// The clients whose track it is, in config order.
    public var clients: [String]
    /// Seconds from its first report, or its source's latest reconnect, to its first usable fix
    /// after it (the daemon's monotonic clock); `nil` while it has none.
    public var timeToFirstFix: Double?
    /// The source that brought it (`gpsd 127.0.0.1:2947`, `nmea /dev/ttyACM0`), when known.
    public var source: String?

    /// A status from its parts.
    public init(
        device: String, state: State, quality: ReceiverQuality?, lastFixAge: Double?, fixes: Int, clients: [String],
        timeToFirstFix: Double? = nil, source: String? = nil
    ) {
        self.device = device
        self.state = state
        self.quality = quality
        self.lastFixAge = lastFixAge
        self.fixes = fixes
        self.clients = clients
        self.timeToFirstFix = timeToFirstFix
        self.source = source
    }

    /// `{"device":…,"source":…,"state":…,"mode":3,"hAcc":2.1,"lastFixAge":0.4,"ttff":31.2,"fixes":120,"clients":[…]}`.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("device", .string(device))]
        if let source { members.append(("source", .string(source))) }
        members.append(("state", .string(state.rawValue)))
        if let quality {
            members.append(("mode", .number(Double(quality.mode.rawValue))))
            if let h = quality.horizontalError { members.append(("hAcc", .number(h))) }
        }
        if let lastFixAge, lastFixAge.isFinite { members.append(("lastFixAge", .number(lastFixAge))) }
        if let timeToFirstFix, timeToFirstFix.isFinite { members.append(("ttff", .number(timeToFirstFix))) }
        members.append(("fixes", .number(Double(fixes))))
        members.append(("clients", .array(clients.map { .string($0) })))
        return .object(members)
    }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "receiver")
        do throws(FieldReader.FieldError) {
            let device = value["device"]?.stringValue ?? ""
            let state = try f.word("state", State.allCases.map(\.rawValue)) { State(rawValue: $0) }
            var quality: ReceiverQuality?
            if let mode = try f.optionalInt("mode") {
                quality = ReceiverQuality(mode: FixMode(rawValue: mode) ?? .unknown, horizontalError: try f.optionalNumber("hAcc"))
            }
            let clients = (value["clients"]?.arrayValue ?? []).compactMap(\.stringValue)
            self.init(
                device: device, state: state, quality: quality, lastFixAge: try f.optionalNumber("lastFixAge"),
                fixes: try f.optionalInt("fixes") ?? 0, clients: clients, timeToFirstFix: try f.optionalNumber("ttff"),
                source: try f.optionalString("source"))
        } catch {
            throw error.decodeError
        }
    }
}
