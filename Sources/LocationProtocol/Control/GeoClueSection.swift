import LocationValues

/// The GeoClue face's section of a `status` reply (docs/geoclue.md):
/// `"geoclue": {"bus": …, "connected": …, "clients": {NAME: {"desktopId": …,
/// "uid": …, "peers": [{"busName", "pid", "uid", "unit"}]}}}` — the bus it
/// serves on and, per engine client GeoClue apps use, its app and the bus
/// peers holding it now (started). Absent while the face is off. Who the peers
/// are (and which apps other users run) reaches a privileged reader only; an
/// app sees its own clients.
public struct GeoClueSection: StatusSection, Hashable {
    /// A bus connection that started a client.
    public struct Peer: Sendable, Hashable {
        /// Its unique bus name (`:1.42`).
        public var busName: String
        public var pid: Int32
        public var uid: UInt32
        /// Its systemd unit, when it could be told.
        public var unit: String?

        /// A peer from its parts.
        public init(busName: String, pid: Int32, uid: UInt32, unit: String?) {
            self.busName = busName
            self.pid = pid
            self.uid = uid
            self.unit = unit
        }

        var json: JSONValue {
            var members: [(String, JSONValue)] = [
                ("busName", .string(busName)), ("pid", .number(Double(pid))), ("uid", .number(Double(uid))),
            ]
            if let unit { members.append(("unit", .string(unit))) }
            return .object(members)
        }
    }

    /// One engine client GeoClue apps use.
    public struct Client: Sendable, Hashable {
        /// The desktop id (or Flatpak id) it is.
        public var desktopId: String
        /// The uid it belongs to, for an app that became a client of its own; `nil` for a configured one.
        public var uid: UInt32?
        /// The bus peers holding it now.
        public var peers: [Peer]

        /// A client from its parts.
        public init(desktopId: String, uid: UInt32?, peers: [Peer]) {
            self.desktopId = desktopId
            self.uid = uid
            self.peers = peers
        }
    }

    /// `system`, or the bus's address.
    public var bus: String
    /// Whether the face owns the name on the bus now.
    public var connected: Bool
    /// By engine client name.
    public var clients: [String: Client]

    /// A section from its parts.
    public init(bus: String, connected: Bool, clients: [String: Client] = [:]) {
        self.bus = bus
        self.connected = connected
        self.clients = clients
    }

    public var jsonMembers: [(String, JSONValue)] {
        let list = clients.keys.sorted().compactMap { name -> (String, JSONValue)? in
            guard let client = clients[name] else { return nil }
            var members: [(String, JSONValue)] = [("desktopId", .string(client.desktopId))]
            if let uid = client.uid { members.append(("uid", .number(Double(uid)))) }
            members.append(("held", .bool(!client.peers.isEmpty)))
            members.append(("peers", .array(client.peers.map(\.json))))
            return (name, .object(members))
        }
        return [("geoclue", .object([("bus", .string(bus)), ("connected", .bool(connected)), ("clients", .object(list))]))]
    }

    public func only(client: String) -> GeoClueSection {
        GeoClueSection(bus: bus, connected: connected, clients: clients.filter { $0.key == client })
    }

    /// Whole for a privileged reader; anyone else sees the bus and their own apps' clients only.
    public func seen(through disclosure: Disclosure) -> GeoClueSection? {
        if disclosure.tier == .privileged { return self }
        return GeoClueSection(bus: bus, connected: connected, clients: clients.filter { disclosure.apps.contains($0.key) })
    }

    /// Reads `geoclue` from a status object.
    public static let read: StatusSections.Reader = { value throws(ControlDecodeError) in
        guard let object = value["geoclue"] else { return nil }
        var clients: [String: Client] = [:]
        for (name, item) in object["clients"]?.objectValue ?? [] {
            let peers = (item["peers"]?.arrayValue ?? []).compactMap { peer -> Peer? in
                guard let busName = peer["busName"]?.stringValue, let pid = peer["pid"]?.intValue,
                    let uid = peer["uid"]?.intValue
                else { return nil }
                return Peer(busName: busName, pid: Int32(truncatingIfNeeded: pid), uid: UInt32(truncatingIfNeeded: uid), unit: peer["unit"]?.stringValue)
            }
            clients[name] = Client(
                desktopId: item["desktopId"]?.stringValue ?? "", uid: item["uid"]?.intValue.map { UInt32(truncatingIfNeeded: $0) },
                peers: peers)
        }
        return GeoClueSection(
            bus: object["bus"]?.stringValue ?? "", connected: object["connected"]?.boolValue ?? false, clients: clients)
    }
}

extension ReportSink {
    /// `LocationUpdated` to a GeoClue app on D-Bus (docs/geoclue.md).
    public static let geoclue = ReportSink(rawValue: "geoclue")
}
