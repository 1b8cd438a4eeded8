import LocationValues

/// The fields of a `hello` reply: the protocol version, the daemon's version,
/// and the configured clients with their log files (so `locationctl tail`
/// finds a client's log without reading the config).
public struct HelloReply: Sendable, Hashable {
    /// One configured client.
    public struct Client: Sendable, Hashable {
        /// The client's name.
        public var name: String
        /// The absolute path of its coordinate log, if it has one.
        public var log: String?

        /// A client from its parts.
        public init(name: String, log: String? = nil) {
            self.name = name
            self.log = log
        }
    }

    /// `ControlProtocol.version` of the daemon.
    public var protocolVersion: Int
    /// The daemon's version, e.g. `0.1.0`.
    public var version: String
    /// The configured clients, in config order.
    public var clients: [Client]

    /// A hello from its parts; the protocol version defaults to this build's.
    public init(protocolVersion: Int = ControlProtocol.version, version: String = LocationdVersion.string, clients: [Client]) {
        self.protocolVersion = protocolVersion
        self.version = version
        self.clients = clients
    }

    /// `protocol`, `version`, `server`, `clients`.
    public var jsonFields: [(String, JSONValue)] {
        [
            ("protocol", .number(Double(protocolVersion))), ("version", .string(version)), ("server", "locationd"),
            (
                "clients",
                .array(
                    clients.map { client in
                        var members: [(String, JSONValue)] = [("name", .string(client.name))]
                        if let log = client.log { members.append(("log", .string(log))) }
                        return .object(members)
                    })
            ),
        ]
    }

    /// Reads the fields `jsonFields` writes, from a reply object.
    public init(replyFields value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "hello reply")
        do throws(FieldReader.FieldError) {
            guard let version = try f.optionalInt("protocol") else {
                throw FieldReader.FieldError("the hello reply has no \"protocol\" version")
            }
            var clients: [Client] = []
            for item in (value["clients"]?.arrayValue ?? []) {
                let c = FieldReader(value: item, context: "hello client")
                clients.append(Client(name: try c.string("name"), log: try c.optionalString("log")))
            }
            self.init(protocolVersion: version, version: try f.optionalString("version") ?? "unknown", clients: clients)
        } catch {
            throw error.decodeError
        }
    }
}
