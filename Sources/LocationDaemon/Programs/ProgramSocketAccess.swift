#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore

/// Who the file system lets reach a client's Unix program sockets
/// (`gpsd_socket`, `nmea_socket`): the file's mode (`socket_mode`) and group
/// (`socket_group`), given to it by `UnixListener` as the control socket's
/// are. The group is looked up (`SocketGroup.lookup`) when the daemon
/// starts; one that does not exist is a configuration error, since the
/// socket would silently be the daemon's group's instead.
struct ProgramSocketAccess: Sendable, Hashable {
    /// The file mode.
    var mode: mode_t
    /// The group the file is given; `nil`: the daemon's own.
    var group: SocketGroup?

    /// The access `settings` of `client` ask for, or why it cannot be had;
    /// `file` is the configuration's path, for the error. A number names a
    /// group ID as it is, whether or not the group database has it.
    static func resolve(_ settings: ProgramSettings, client: String, file: String) -> Result<ProgramSocketAccess, ConfigError> {
        let mode = mode_t(settings.socketMode)
        guard let name = settings.socketGroup else { return .success(ProgramSocketAccess(mode: mode, group: nil)) }
        if let gid = UInt32(name) { return .success(ProgramSocketAccess(mode: mode, group: SocketGroup(name: name, gid: gid))) }
        switch SocketGroup.lookup(name) {
        case .success(let group):
            return .success(ProgramSocketAccess(mode: mode, group: group))
        case .failure(let error):
            let section = "client.\(client)"
            let detail: String
            switch error {
            case .noSuchGroup:
                detail = "[\(section)] socket_group = \(name): there is no group \(name) on this machine; create it "
                    + "(addgroup --system \(name)), or name a group that exists, or leave socket_group empty for the daemon's own"
            case .failed:
                detail = "[\(section)] socket_group = \(name): \(error)"
            }
            return .failure(ConfigError(
                kind: .badValue, file: file, line: nil, section: section, key: "socket_group", value: name,
                accepted: "a group that exists", detail: detail))
        }
    }

    /// Why the program sockets of `config` cannot be given their groups, one
    /// error per client whose `socket_group` does not exist (the daemon
    /// refuses to start with them, exit 78, and `check-config` lists them).
    static func problems(_ config: DaemonConfig) -> [ConfigError] {
        ProgramEndpoint.all(config).errors
    }
}
