/// Where one client serves its deliveries to programs, besides its log
/// (`gpsd_socket`, `gpsd_port`, `nmea_socket`), and who may connect: the
/// Unix sockets' file mode and group (`socket_mode`, `socket_group`), and
/// the peers' credentials (`allow_users`, `allow_groups`).
public struct ProgramSettings: Sendable, Hashable, Codable {
    /// The `[client.NAME]` keys these settings come from (ConfigKeyTable.swift).
    public static let keys = ConfigReader.programRows.map(\.key.name)
    /// `socket_mode` when the file does not set it: any local user may
    /// connect, as any may reach gpsd's port; the client's permission decides
    /// what a program gets (docs/locationd.conf.5.md says why).
    public static let defaultSocketMode: UInt32 = 0o666

    /// A Unix socket speaking gpsd's JSON protocol (`gpsd_socket`).
    public var gpsdSocket: String?
    /// A loopback TCP port speaking gpsd's JSON protocol on 127.0.0.1 and ::1 (`gpsd_port`).
    public var gpsdPort: Int?
    /// A Unix socket streaming NMEA sentences (`nmea_socket`).
    public var nmeaSocket: String?
    /// The file mode of `gpsdSocket` and `nmeaSocket` (`socket_mode`, at most 0o777).
    public var socketMode: UInt32
    /// The group given to `gpsdSocket` and `nmeaSocket` (`socket_group`, a
    /// name or number); `nil`: the daemon's own group.
    public var socketGroup: String?
    /// Users (names or numbers) whose programs may connect; empty with `allowGroups` empty: anyone.
    public var allowUsers: [String]
    /// Groups (names or numbers) whose members' programs may connect.
    public var allowGroups: [String]

    /// Settings from their parts; by default the client serves no program.
    public init(
        gpsdSocket: String? = nil, gpsdPort: Int? = nil, nmeaSocket: String? = nil,
        socketMode: UInt32 = ProgramSettings.defaultSocketMode, socketGroup: String? = nil, allowUsers: [String] = [],
        allowGroups: [String] = []
    ) {
        self.gpsdSocket = gpsdSocket
        self.gpsdPort = gpsdPort
        self.nmeaSocket = nmeaSocket
        self.socketMode = socketMode
        self.socketGroup = socketGroup
        self.allowUsers = allowUsers
        self.allowGroups = allowGroups
    }

    /// Whether the client serves any program.
    public var servesPrograms: Bool { gpsdSocket != nil || gpsdPort != nil || nmeaSocket != nil }

    /// Whether the client has a Unix program socket (`socket_mode` and `socket_group` apply to it).
    public var hasUnixSockets: Bool { gpsdSocket != nil || nmeaSocket != nil }

    /// `0666`: a mode as the config file and ls(1) write it.
    public static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Whether anyone who can connect may (no `allow_users` and no `allow_groups`).
    public var allowsEveryone: Bool { allowUsers.isEmpty && allowGroups.isEmpty }
}
