import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues

/// The program sockets as a face of the daemon (`Face`, docs/protocol.md "Program sockets"):
/// its deliveries go through `ProgramSinks`, its sockets are served by `ProgramService` while a
/// client has any, and the groups of those sockets are checked on this host.
final class ProgramFace: Face {
    /// `programs`.
    let name = "programs"
    /// Where deliveries meet the clients' programs (the program server takes them from here).
    let sinks = ProgramSinks()

    /// The face while a client has program sockets.
    static func make(config: DaemonConfig) -> ProgramFace? {
        config.clients.contains(where: \.programs.servesPrograms) ? ProgramFace() : nil
    }

    /// The program sockets' groups exist on this host.
    static func hostProblems(_ config: DaemonConfig) -> [ConfigError] {
        ProgramSocketAccess.problems(config)
    }

    /// The program server is set up at start: the program keys wait for a restart.
    static func reloadNeedsRestart(_ reload: inout ConfigReload, running: DaemonConfig) {
        if programSockets(of: reload.effective) != programSockets(of: running) { reload.needRestart.append(programKeys) }
    }

    /// The keys the running program server does not take again (it is set up at start).
    static let programKeys = "the program keys (" + ProgramSettings.keys.joined(separator: ", ") + ")"

    /// Each client's program settings, by name.
    static func programSockets(of config: DaemonConfig) -> [String: ProgramSettings] {
        var settings: [String: ProgramSettings] = [:]
        for client in config.clients where client.programs.servesPrograms { settings[client.name] = client.programs }
        return settings
    }

    var output: (any OutputFace)? { sinks }

    /// The program server.
    func service(config: DaemonConfig, core: DaemonCore) throws -> (any Service)? {
        try ProgramService(config: config, core: core, sinks: sinks)
    }
}

extension ClientHolder.Face {
    /// A program socket: a connection watching.
    public static let program = ClientHolder.Face("program", holders: "programs")
}
