import LocationConfig
import LocationCore
import LocationSystem
import Synchronization

/// `audit.jsonl`: one line per accepted state change (`AuditRecord`), each
/// forced to disk before `record` returns (a `LogWriter` with `fsync =
/// always`, whatever the coordinate logs use), so an audit line is never
/// lost once the change was answered. Safe to call from any thread.
public final class AuditLog: Sendable {
    /// The file's path.
    public let path: String
    private let writer: Mutex<LogWriter>

    /// Opens (creating it and its directory as needed) the audit log at
    /// `path`, cutting off a torn last line left by a crash.
    public init(path: String) throws(SystemError) {
        self.path = path
        let writer = try LogWriter(path: path, fsync: .always)
        if let notice = writer.repairNotice { Diagnostics.audit.log(notice.level, notice.description) }
        self.writer = Mutex(writer)
    }

    /// Opens `audit.jsonl` (`DaemonConfig.auditLogName`) in `directory`.
    public convenience init(directory: String) throws(SystemError) {
        try self.init(path: DaemonConfig.join(directory, DaemonConfig.auditLogName))
    }

    /// Appends one record and syncs it. A failure (disk full, …) is logged
    /// once per episode and returned; the line is held and retried (see `LogWriter`).
    @discardableResult
    public func record(_ record: AuditRecord) -> LogWriter.Notice? {
        let notice = writer.withLock { $0.append(record.line()) }
        if let notice { Diagnostics.audit.log(notice.level, notice.description) }
        return notice
    }

    /// Retries held lines (call from the daemon's tick, at `nextDeadline`); `now` is monotonic seconds.
    @discardableResult
    public func flushIfDue(now: Double) -> LogWriter.Notice? {
        let notice = writer.withLock { $0.flushIfDue(now: now) }
        if let notice { Diagnostics.audit.log(notice.level, notice.description) }
        return notice
    }

    /// When `flushIfDue` next has work (`LogWriter.nextDeadline`).
    public func nextDeadline(now: Double) -> Double {
        writer.withLock { $0.nextDeadline(now: now) }
    }

    /// Reopens the file at the same path (SIGHUP after logrotate).
    public func reopen() throws(SystemError) {
        let dropped = try writer.withLock { writer throws(SystemError) in try writer.reopen() }
        if dropped > 0 {
            let notice = LogWriter.Notice.repaired(path: path, droppedBytes: dropped)
            Diagnostics.audit.log(notice.level, notice.description)
        }
    }

    /// Lines written since it was opened.
    public var linesWritten: Int { writer.withLock { $0.linesWritten } }

    /// Writes what is held, syncs and closes; later records are counted as lost.
    @discardableResult
    public func close() -> LogWriter.Notice? {
        let notice = writer.withLock { $0.close() }
        if let notice { Diagnostics.audit.log(notice.level, notice.description) }
        return notice
    }
}
