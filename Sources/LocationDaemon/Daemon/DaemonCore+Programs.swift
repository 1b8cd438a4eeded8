import LocationCore

extension DaemonCore {
    /// Appends a program-socket event (a refused peer) to the audit log.
    public func auditProgram(_ record: AuditRecord) {
        guard !isStopped else { return }
        audit.record(record)
    }
}

extension DaemonCore {
    /// The keys whose changes the running program server does not take (it is set up at start).
    static let programKeys = "gpsd_socket, gpsd_port, nmea_socket, allow_users, allow_groups"

    /// Each client's program settings, by name, for telling whether a reload changed them.
    static func programSockets(of config: DaemonConfig) -> [String: ProgramSettings] {
        var settings: [String: ProgramSettings] = [:]
        for client in config.clients where client.programs.servesPrograms { settings[client.name] = client.programs }
        return settings
    }
}
