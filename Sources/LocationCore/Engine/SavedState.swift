/// What the engine keeps across restarts (`state.json`): the Location
/// Services switch and each client's permanent state. Allow Once,
/// temporary full accuracy, pending prompts and pending locates are not
/// saved, so a restart ends them as SPEC §3.3 says.
public struct SavedState: Sendable, Hashable, Codable {
    /// The format version this build writes.
    public static let currentVersion = 1

    /// Format version of the file.
    public var version: Int
    /// The Location Services switch.
    public var services: Bool
    /// Per client, in config order.
    public var clients: [SavedClientState]

    /// A saved state from its parts.
    public init(services: Bool, clients: [SavedClientState]) {
        version = Self.currentVersion
        self.services = services
        self.clients = clients
    }

    /// The saved state of the named client, if any.
    public func client(_ name: String) -> SavedClientState? {
        clients.first { $0.name == name }
    }

    enum CodingKeys: String, CodingKey {
        case version, services, clients
    }

    /// Decodes a state file; refuses one written by a newer format.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        guard version >= 1, version <= Self.currentVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "state format version \(version) is not one this locationd reads (1...\(Self.currentVersion))")
        }
        services = try container.decode(Bool.self, forKey: .services)
        clients = try container.decode([SavedClientState].self, forKey: .clients)
    }
}
