/// Who a client's app is (`[client.NAME] app_users`, `app_groups`,
/// `app_units`): a peer is the client's app when its user, one of its groups
/// or its systemd unit (read from its cgroup when it connects) is named here.
/// The app may send the app side's commands for its client on the control
/// socket, gets its client's `location` events on its own connection, and is
/// let in by the client's program sockets (docs/authorization.md, "Apps").
public struct AppSettings: Sendable, Hashable {
    /// The `[client.NAME]` keys these settings come from (ConfigKeyTable.swift).
    public static let keys = ConfigReader.appRows.map(\.key.name)

    /// Users (names or numbers) whose processes are the app.
    public var users: [String]
    /// Groups (names or numbers) whose members' processes are the app.
    public var groups: [String]
    /// systemd units (`survey.service`, `run-u42.scope`) whose processes are the app.
    public var units: [String]

    /// Settings from their parts; by default no peer is the client's app.
    public init(users: [String] = [], groups: [String] = [], units: [String] = []) {
        self.users = users
        self.groups = groups
        self.units = units
    }

    /// Whether the client names no app.
    public var isEmpty: Bool { users.isEmpty && groups.isEmpty && units.isEmpty }
}

extension ConfigReader {
    /// One of `AppSettings.keys`: names separated by spaces or commas, or nothing.
    mutating func readAppKey(_ entry: INIParser.Entry, _ section: INIParser.Section, into app: inout AppSettings) {
        let names = entry.value.split { $0 == " " || $0 == "\t" || $0 == "," }.map(String.init)
        switch entry.key {
        case "app_users", "app_groups":
            let what = entry.key == "app_users" ? "user" : "group"
            guard names.allSatisfy(Self.isGroupName) else {
                bad(entry, section, accepted: "\(what) names or numbers separated by spaces or commas, or nothing")
                return
            }
            if entry.key == "app_users" { app.users = names } else { app.groups = names }
        case "app_units":
            guard names.allSatisfy(Self.isUnitName) else {
                bad(entry, section, accepted: "systemd unit names ending in .service or .scope (survey.service), separated by spaces or commas, or nothing")
                return
            }
            app.units = names
        default:
            preconditionFailure("readAppKey was handed \(entry.key), which is not an app key")
        }
    }

    /// A unit a process runs in: `NAME.service` or `NAME.scope`, without a slash.
    static func isUnitName(_ name: String) -> Bool {
        (name.hasSuffix(".service") || name.hasSuffix(".scope")) && name.utf8.count <= 255
            && !name.contains("/") && name.first != "." && name.first != "-"
    }
}
