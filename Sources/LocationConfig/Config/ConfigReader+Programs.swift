/// The `[client.NAME]` keys that serve programs (`ProgramSettings.keys`):
/// `gpsd_socket`, `gpsd_port`, `nmea_socket`, `socket_mode`, `socket_group`,
/// `allow_users`, `allow_groups`.
extension ConfigReader {
    mutating func readProgramKey(_ entry: INIParser.Entry, _ section: INIParser.Section, into programs: inout ProgramSettings) {
        switch entry.key {
        case "gpsd_socket", "nmea_socket":
            var path: String?
            if !entry.value.isEmpty {
                guard let given = absolutePath(entry, section, maxLength: DaemonConfig.maximumSocketPathLength) else { return }
                path = given
            }
            if entry.key == "gpsd_socket" { programs.gpsdSocket = path } else { programs.nmeaSocket = path }
        case "gpsd_port":
            if entry.value.isEmpty {
                programs.gpsdPort = nil
            } else if let port = value(
                entry, section, Self.integer, accepted: "a TCP port from 1 to 65535 (served on 127.0.0.1 and ::1 only), or nothing",
                where: { (1...65535).contains($0) })
            {
                programs.gpsdPort = port
            }
        case "socket_mode":
            if entry.value.isEmpty {
                programs.socketMode = ProgramSettings.defaultSocketMode
            } else if let mode = Self.socketMode(entry.value) {
                programs.socketMode = mode
            } else if let number = Self.octalNumber(entry.value) {
                let note = number & 0o7000 != 0
                    ? "setuid, setgid and sticky bits mean nothing on a socket" : "the owner, the daemon's user, needs read and write"
                bad(entry, section, accepted: Self.socketModes, note: note)
            } else {
                bad(entry, section, accepted: Self.socketModes)
            }
        case "socket_group":
            if entry.value.isEmpty {
                programs.socketGroup = nil
            } else if Self.isGroupName(entry.value) {
                programs.socketGroup = entry.value
            } else {
                bad(entry, section, accepted: "a group name or number, or nothing for the daemon's own group")
            }
        case "allow_users", "allow_groups":
            let names = entry.value.split { $0 == " " || $0 == "\t" || $0 == "," }.map(String.init)
            let what = entry.key == "allow_users" ? "user" : "group"
            let refused = names.filter { !Self.isGroupName($0) }
            guard refused.isEmpty else {
                bad(entry, section, accepted: "\(what) names or numbers separated by spaces or commas, or nothing for anyone")
                return
            }
            if entry.key == "allow_users" { programs.allowUsers = names } else { programs.allowGroups = names }
        default:
            preconditionFailure("readProgramKey was handed \(entry.key), which is not a program key")
        }
    }

    static let socketModes =
        "an octal file mode from 0600 to 0777 that gives the owner read and write, such as 0660 or 0666, or nothing for 0666"

    /// A mode as `chmod` takes it in octal (`0660`, `660`): up to four digits 0–7.
    static func octalNumber(_ text: String) -> UInt32? {
        guard !text.isEmpty, text.utf8.count <= 4, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x37 }) else { return nil }
        return UInt32(text, radix: 8)
    }

    /// A `socket_mode`: octal, no bits beyond 0o777, and read and write for
    /// the owner (the daemon connects to a socket it finds at start-up to
    /// tell one left by a stopped daemon from one in use).
    static func socketMode(_ text: String) -> UInt32? {
        guard let mode = octalNumber(text), mode <= 0o777, mode & 0o600 == 0o600 else { return nil }
        return mode
    }

    /// `socket_mode` and `socket_group` are the Unix sockets' file mode and
    /// group: set (other than to their defaults, which check-config writes
    /// for every client) on a client without `gpsd_socket` or `nmea_socket`
    /// they would do nothing, which is surely a mistake.
    mutating func checkSocketAccessKeys(_ config: DaemonConfig, sections: [INIParser.Section]) {
        for client in config.clients where !client.programs.hasUnixSockets {
            guard let section = sections.first(where: { $0.name == "client.\(client.name)" }) else { continue }
            let set = [
                ("socket_mode", client.programs.socketMode != ProgramSettings.defaultSocketMode),
                ("socket_group", client.programs.socketGroup != nil),
            ]
            for (key, isSet) in set where isSet {
                guard let entry = section.entries.last(where: { $0.key == key }) else { continue }
                errors.append(.conflict(
                    file: file, line: entry.line, section: section.name, key: key, value: entry.value,
                    detail: "[\(section.name)] \(key) = \(entry.value) sets the file of gpsd_socket and nmea_socket, "
                        + "and this client has neither: add one, or remove \(key) (gpsd_port is TCP and has no file)"))
            }
        }
    }

    /// No two clients (nor the control socket) on one socket path or one port:
    /// programs would not know whose fixes they get. Nor a `gpsd_port` that a
    /// gpsd the daemon reads on this machine listens on: the daemon could not
    /// bind it, and a program there would talk to gpsd, not to locationd.
    mutating func checkProgramConflicts(_ config: DaemonConfig, sections: [INIParser.Section]) {
        var owners: [String: String] = [config.socket: "the control socket ([daemon] socket)"]
        // Each port's owner, and what to do when a client asks for it too.
        var ports: [Int: (owner: String, remedy: String)] = [:]
        for source in config.sources {
            guard case .gpsd(let host, let port) = source.endpoint, Self.isLoopback(host), ports[port] == nil else { continue }
            ports[port] = ("the port of the gpsd locationd reads ([\(source.section)] \(source))", "choose another port for this client")
        }
        for client in config.clients {
            let section = sections.first { $0.name == "client.\(client.name)" }
            func line(_ key: String) -> Int { section?.entries.last { $0.key == key }?.line ?? section?.line ?? 0 }
            for (key, path) in [("gpsd_socket", client.programs.gpsdSocket), ("nmea_socket", client.programs.nmeaSocket)] {
                guard let path else { continue }
                let mine = "[client.\(client.name)] \(key)"
                if let owner = owners[path] {
                    errors.append(.conflict(
                        file: file, line: line(key), section: "client.\(client.name)", key: key, value: path,
                        detail: "\(mine) = \(path) is already \(owner): give each program socket its own path"))
                } else {
                    owners[path] = mine
                }
            }
            if let port = client.programs.gpsdPort {
                if let (owner, remedy) = ports[port] {
                    errors.append(.conflict(
                        file: file, line: line("gpsd_port"), section: "client.\(client.name)", key: "gpsd_port",
                        value: String(port),
                        detail: "[client.\(client.name)] gpsd_port = \(port) is already \(owner): \(remedy)"))
                } else {
                    ports[port] = ("[client.\(client.name)]'s", "give each client its own port")
                }
            }
        }
    }

    /// Whether `host` names this machine's loopback: `localhost`, `127.x.y.z`, `::1`.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.") || host == "ip6-localhost"
    }
}
