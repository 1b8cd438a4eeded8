import LocationValues

/// Who a position went to through a socket: the peer's uid, unit and process name, when known.
public struct AccessPeer: Sendable, Hashable {
    /// The peer's uid.
    public var uid: UInt32?
    /// The systemd unit it runs in.
    public var unit: String?
    /// Its process name (`/proc/PID/comm`).
    public var name: String?
    /// The name of `uid` in the user database when the report was made (`nobody`); not kept in the file.
    public var user: String?

    /// A peer from its parts.
    public init(uid: UInt32?, unit: String? = nil, name: String? = nil, user: String? = nil) {
        self.uid = uid
        self.unit = unit
        self.name = name
        self.user = user
    }
}

/// One line of the access report's file (`state_dir/report.jsonl`): the
/// positions handed to one client in one minute through one sink at one
/// accuracy, and for a socket to one peer:
/// `{"m":29566080,"c":"logger","s":"log","a":"full","n":60}`.
public struct AccessCount: Sendable, Hashable {
    /// Minutes since 1970-01-01 UTC.
    public var minute: Int64
    /// The client.
    public var client: String
    /// The face it went through: `log`, `gpsd_socket`, `gpsd_port`, `nmea_socket`, `watch`, `mqtt`, … (`ReportSink`).
    public var sink: ReportSink
    /// The accuracy delivered.
    public var accuracy: DeliveredAccuracy
    /// The peer, for a socket.
    public var peer: AccessPeer?
    /// How many positions.
    public var count: Int

    /// A count from its parts.
    public init(minute: Int64, client: String, sink: ReportSink, accuracy: DeliveredAccuracy, peer: AccessPeer?, count: Int) {
        self.minute = minute
        self.client = client
        self.sink = sink
        self.accuracy = accuracy
        self.peer = peer
        self.count = count
    }

    /// The line, ending in `\n`.
    public var line: String {
        var members: [(String, JSONValue)] = [
            ("m", .number(Double(minute))), ("c", .string(client)), ("s", .string(sink.rawValue)),
            ("a", .string(accuracy.rawValue)), ("n", .number(Double(count))),
        ]
        if let uid = peer?.uid { members.append(("u", .number(Double(uid)))) }
        if let unit = peer?.unit { members.append(("unit", .string(unit))) }
        if let name = peer?.name { members.append(("p", .string(name))) }
        return JSONValue.object(members).serialized + "\n"
    }

    /// A line read back; `nil` for a garbled one (a torn last line after a crash).
    public init?(line: some Collection<UInt8>) {
        guard let value = try? JSONValue.parse(line),
            let minute = value["m"]?.numberValue, let client = value["c"]?.stringValue,
            let sink = value["s"]?.stringValue, let accuracy = value["a"]?.stringValue.flatMap(DeliveredAccuracy.init),
            let count = value["n"]?.numberValue, count >= 0, count < 1e12, minute >= 0, minute < 1e12
        else { return nil }
        let uid = value["u"]?.numberValue.flatMap { UInt32(exactly: $0) }
        let unit = value["unit"]?.stringValue
        let name = value["p"]?.stringValue
        let peer = uid == nil && unit == nil && name == nil ? nil : AccessPeer(uid: uid, unit: unit, name: name)
        self.init(minute: Int64(minute), client: client, sink: ReportSink(rawValue: sink), accuracy: accuracy, peer: peer, count: Int(count))
    }
}

/// The access report (`locationctl report`): per client, when positions
/// were handed out (first and last minute), how many, by sink, by
/// accuracy and by socket peer — like iOS's App Privacy Report.
public struct AccessReport: Sendable {
    /// One client's positions.
    public struct Client: Sendable {
        /// The client.
        public var client: String
        /// The first and last minute with a position (UTC seconds of the minute's start).
        public var first: Double
        /// The last minute with a position.
        public var last: Double
        /// Every position handed out, through any sink.
        public var count: Int
        /// Positions by sink.
        public var sinks: [String: Int]
        /// Positions by accuracy.
        public var full: Int
        /// Positions at reduced accuracy.
        public var reduced: Int
        /// Positions by socket peer and sink, in order of first appearance.
        public var peers: [(peer: AccessPeer, sink: String, count: Int)]
    }

    /// The clients with positions, by name.
    public var clients: [Client]

    /// The report of `counts` from minute `since` on, for the clients `only` lets through.
    public init(counts: [AccessCount], since: Int64 = 0, only: (String) -> Bool = { _ in true }) {
        var byClient: [String: Client] = [:]
        for count in counts where count.minute >= since && count.count > 0 && only(count.client) {
            let start = Double(count.minute) * 60
            var client = byClient[count.client] ?? Client(
                client: count.client, first: start, last: start, count: 0, sinks: [:], full: 0, reduced: 0, peers: [])
            client.first = min(client.first, start)
            client.last = max(client.last, start)
            client.count += count.count
            client.sinks[count.sink.rawValue, default: 0] += count.count
            if count.accuracy == .full { client.full += count.count } else { client.reduced += count.count }
            if let peer = count.peer {
                if let index = client.peers.firstIndex(where: { $0.peer == peer && $0.sink == count.sink.rawValue }) {
                    client.peers[index].count += count.count
                } else {
                    client.peers.append((peer, count.sink.rawValue, count.count))
                }
            }
            byClient[count.client] = client
        }
        clients = byClient.values.sorted { $0.client < $1.client }
    }

    /// Gives every peer its user name, `lookup` asked once per uid.
    public mutating func nameUsers(_ lookup: (UInt32) -> String?) {
        var names: [UInt32: String?] = [:]
        for c in clients.indices {
            for p in clients[c].peers.indices {
                guard let uid = clients[c].peers[p].peer.uid else { continue }
                let name = names[uid] ?? lookup(uid)
                names[uid] = name
                clients[c].peers[p].peer.user = name
            }
        }
    }

    /// `{"clients":[{client, first, last, count, sinks, accuracy, peers}]}`.
    public var json: JSONValue {
        .object([("clients", .array(clients.map(\.json)))])
    }
}

extension AccessReport.Client {
    /// `{client, first, last, count, sinks: {NAME: n}, accuracy: {full: n, reduced: n}, peers: [{uid, user?, unit?, name?, sink, count}]}`.
    public var json: JSONValue {
        let peerList = peers.map { entry -> JSONValue in
            var members: [(String, JSONValue)] = [("uid", entry.peer.uid.map { .number(Double($0)) } ?? .null)]
            if let user = entry.peer.user { members.append(("user", .string(user))) }
            if let unit = entry.peer.unit { members.append(("unit", .string(unit))) }
            if let name = entry.peer.name { members.append(("name", .string(name))) }
            members += [("sink", .string(entry.sink)), ("count", .number(Double(entry.count)))]
            return .object(members)
        }
        return .object([
            ("client", .string(client)), ("first", .string(UTCTime.format(first, fractionDigits: 0))),
            ("last", .string(UTCTime.format(last, fractionDigits: 0))), ("count", .number(Double(count))),
            ("sinks", .object(sinks.keys.sorted().map { ($0, .number(Double(sinks[$0] ?? 0))) })),
            ("accuracy", .object([("full", .number(Double(full))), ("reduced", .number(Double(reduced)))])),
            ("peers", .array(peerList)),
        ])
    }
}
