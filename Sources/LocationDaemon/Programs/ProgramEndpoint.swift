import LocationConfig
import LocationCore
import LocationProtocol

/// One socket a client serves programs on.
struct ProgramEndpoint: Sendable {
    /// What is spoken on it.
    enum Kind: Sendable, Hashable {
        /// gpsd's JSON protocol.
        case gpsd
        /// A stream of NMEA sentences.
        case nmea
    }

    /// Where it listens.
    enum Place: Sendable, Hashable {
        /// A Unix socket at a path.
        case unix(String)
        /// Loopback TCP (127.0.0.1 and ::1) on a port.
        case loopback(Int)
    }

    /// The client whose deliveries it serves.
    var client: String
    var kind: Kind
    var place: Place
    /// Who may connect.
    var allow: ProgramAllowList
    /// A Unix socket's file mode and group (unused on loopback TCP).
    var access: ProgramSocketAccess

    /// The config key it comes from: `gpsd_socket`, `gpsd_port`, `nmea_socket`.
    var key: String { sink.rawValue }

    /// What the access report counts its positions under: the config key's name.
    var sink: ReportSink {
        switch (kind, place) {
        case (.gpsd, .unix): .gpsdSocket
        case (.gpsd, .loopback): .gpsdPort
        case (.nmea, _): .nmeaSocket
        }
    }

    /// What is spoken on it, as bytes: one type per protocol.
    var wire: any ProgramWire {
        switch kind {
        case .gpsd: GPSDWire()
        case .nmea: NMEAWire()
        }
    }

    /// `[client.qgis] gpsd_port 2948`, for messages.
    var name: String {
        switch place {
        case .unix(let path): "[client.\(client)] \(key) \(path)"
        case .loopback(let port): "[client.\(client)] \(key) \(port)"
        }
    }

    /// Every endpoint of every client, in config order; `errors` are the
    /// `socket_group`s that cannot be had (`ProgramSocketAccess`).
    static func all(_ config: DaemonConfig) -> (endpoints: [ProgramEndpoint], warnings: [String], errors: [ConfigError]) {
        var endpoints: [ProgramEndpoint] = []
        var warnings: [String] = []
        var errors: [ConfigError] = []
        for client in config.clients where client.programs.servesPrograms {
            let (allow, problems) = ProgramAllowList.resolve(client)
            warnings += problems
            let access: ProgramSocketAccess
            switch ProgramSocketAccess.resolve(client.programs, client: client.name, file: config.file) {
            case .success(let resolved): access = resolved
            case .failure(let error):
                errors.append(error)
                continue
            }
            func add(_ kind: Kind, _ place: Place) {
                endpoints.append(
                    ProgramEndpoint(
                        client: client.name, kind: kind, place: place, allow: allow, access: access))
            }
            if let path = client.programs.gpsdSocket { add(.gpsd, .unix(path)) }
            if let port = client.programs.gpsdPort { add(.gpsd, .loopback(port)) }
            if let path = client.programs.nmeaSocket { add(.nmea, .unix(path)) }
        }
        return (endpoints, warnings, errors)
    }
}
