/// Where one client serves its deliveries to programs, besides its log
/// (`gpsd_socket`, `gpsd_port`, `nmea_socket`), and who may connect
/// (`allow_users`, `allow_groups`).
public struct ProgramSettings: Sendable, Hashable, Codable {
    /// A Unix socket speaking gpsd's JSON protocol (`gpsd_socket`).
    public var gpsdSocket: String?
    /// A loopback TCP port speaking gpsd's JSON protocol on 127.0.0.1 and ::1 (`gpsd_port`).
    public var gpsdPort: Int?
    /// A Unix socket streaming NMEA sentences (`nmea_socket`).
    public var nmeaSocket: String?
    /// Users (names or numbers) whose programs may connect; empty with `allowGroups` empty: anyone.
    public var allowUsers: [String]
    /// Groups (names or numbers) whose members' programs may connect.
    public var allowGroups: [String]

    /// Settings from their parts; by default the client serves no program.
    public init(
        gpsdSocket: String? = nil, gpsdPort: Int? = nil, nmeaSocket: String? = nil, allowUsers: [String] = [],
        allowGroups: [String] = []
    ) {
        self.gpsdSocket = gpsdSocket
        self.gpsdPort = gpsdPort
        self.nmeaSocket = nmeaSocket
        self.allowUsers = allowUsers
        self.allowGroups = allowGroups
    }

    /// Whether the client serves any program.
    public var servesPrograms: Bool { gpsdSocket != nil || gpsdPort != nil || nmeaSocket != nil }

    /// Whether anyone who can connect may (no `allow_users` and no `allow_groups`).
    public var allowsEveryone: Bool { allowUsers.isEmpty && allowGroups.isEmpty }
}
