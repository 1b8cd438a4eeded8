/// The `[client.NAME]` keys that serve programs: `gpsd_socket`, `gpsd_port`,
/// `nmea_socket`, `allow_users`, `allow_groups`.
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

    /// No two clients (nor the control socket) on one socket path or one port:
    /// programs would not know whose fixes they get.
    mutating func checkProgramConflicts(_ config: DaemonConfig, sections: [INIParser.Section]) {
        var owners: [String: String] = [config.socket: "the control socket ([daemon] socket)"]
        var ports: [Int: String] = [:]
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
                if let owner = ports[port] {
                    errors.append(.conflict(
                        file: file, line: line("gpsd_port"), section: "client.\(client.name)", key: "gpsd_port",
                        value: String(port), detail: "[client.\(client.name)] gpsd_port = \(port) is already \(owner)'s: give each client its own port"))
                } else {
                    ports[port] = "[client.\(client.name)]"
                }
            }
        }
    }
}
