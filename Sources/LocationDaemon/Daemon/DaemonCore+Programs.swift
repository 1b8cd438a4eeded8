import LocationCore

extension DaemonCore {
    /// Appends a program-socket event (a refused peer) to the audit log.
    public func auditProgram(_ record: AuditRecord) {
        owner.withLock { $0.auditProgram(record) }
    }
}
