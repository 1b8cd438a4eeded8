#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem

/// Every configured client's coordinate log (SPEC §5.3): one `LogWriter` per
/// client that has a `log`, opened at start, reopened on SIGHUP, changed by a
/// reload, closed at shutdown. Every notice a writer returns is logged here,
/// once, at its level. Used by `run` and `replay` alike (through `EffectCarrier`).
///
/// Writes: with `fsync = always` each line is written and synced before
/// `append` returns (on disk before the next fix). With `fsync = interval`
/// (and in replay) lines are gathered per client and written in batches of
/// whole lines — whenever the daemon's source pauses (`writeBatches`, so a
/// live fix is written at once and a burst in one write), when a batch
/// reaches `batchLimit` bytes (replay), and at every tick, reopen,
/// reconfigure and close — so each `write(2)` holds only whole lines and a
/// crash loses at most the lines of the moment, and a power cut what
/// `fsync = interval` allows anyway.
///
/// Not thread-safe: one owner (the daemon core, or a replay) calls it.
public final class ClientLogs {
    /// A log that could not be opened.
    public struct OpenError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The client.
        public var client: String
        /// The log's path.
        public var path: String
        /// What failed.
        public var error: SystemError

        /// `cannot open the log of client logger: open /x: Permission denied; …`.
        public var description: String {
            var advice = ""
            if error.explanation != nil {
                // The refusal says what was found and what to do.
            } else if error.errno == EACCES || error.errno == EPERM {
                advice = "; make its directory writable by the user locationd runs as"
            } else if error.errno == ENOENT || error.errno == ENOTDIR {
                advice = "; check log_dir and the client's log in the configuration"
            }
            return "cannot open the log of client \(client): \(error)\(advice)"
        }
    }

    /// Every log that could not be opened, at once.
    public struct OpenErrors: Error, Sendable, Hashable, CustomStringConvertible {
        /// The failures, in config order.
        public var errors: [OpenError]
        /// One per line.
        public var description: String { errors.map(\.description).joined(separator: "\n") }
    }

    private struct Entry {
        var path: String
        var writer: LogWriter?
        /// Whole lines not yet handed to the writer (`fsync = interval`).
        var batch: [UInt8] = []
        var batchLines = 0
    }

    /// Bytes a client's batch may reach before it is written: 64 KiB, less
    /// with many clients (at most about 1 MiB held in all).
    public private(set) var batchLimit = 1 << 16

    /// The fsync policy new writers get.
    public private(set) var fsyncPolicy: FsyncPolicy
    /// Replay's `--log-dir`: the directory every client's log goes to instead of `log_dir`.
    public let logDirectoryOverride: String?
    private var entries: [String: Entry] = [:]
    private var order: [String] = []

    /// Opens the log of every client of `config` that has one (creating files
    /// and directories as needed, repairing a torn last line and saying so).
    /// Throws every log that cannot be opened; nothing is left open then.
    public init(config: DaemonConfig, logDirectory: String? = nil, fsync: FsyncPolicy? = nil) throws(OpenErrors) {
        fsyncPolicy = fsync ?? config.fsync
        logDirectoryOverride = logDirectory
        var failures: [OpenError] = []
        for client in config.clients where entries[client.name] == nil {
            order.append(client.name)
            guard let path = config.logPath(forClient: client.name, logDirectory: logDirectory) else {
                continue
            }
            do {
                entries[client.name] = Entry(path: path, writer: try Self.open(path, fsync: fsyncPolicy))
            } catch {
                failures.append(OpenError(client: client.name, path: path, error: error))
            }
        }
        guard failures.isEmpty else {
            closeAll()
            throw OpenErrors(errors: failures)
        }
        batchLimit = Self.batchLimit(clients: order.count)
    }

    private static func batchLimit(clients: Int) -> Int {
        max(4096, min(1 << 16, (1 << 20) / max(1, clients)))
    }

    /// The path of a client's log, if it has one.
    public func path(of client: String) -> String? {
        entries[client]?.path
    }

    /// The writer of a client's log, if it is open.
    public func writer(of client: String) -> LogWriter? {
        entries[client]?.writer
    }

    /// The clients, in config order.
    public var clients: [String] { order }

    /// Appends one record line (ending in `\n`) to `client`'s log: written
    /// now with `fsync = always`, batched with `fsync = interval`. Returns
    /// false when the client has no open log (the line is not kept).
    @discardableResult
    public func append(_ line: [UInt8], client: String) -> Bool {
        guard let writer = entries[client]?.writer else { return false }
        guard fsyncPolicy == .interval, line.last == UInt8(ascii: "\n") else {
            if let notice = writer.append(line) { Self.report(notice) }
            return true
        }
        if let queued = entries[client]?.batch.count, queued > 0, queued + line.count > batchLimit {
            writeBatch(of: client)
        }
        entries[client]?.batch.append(contentsOf: line)
        entries[client]?.batchLines += 1
        return true
    }

    /// The 1 s duty: writes the batches, retries held lines and syncs per `fsync = interval`.
    public func flushIfDue(now: Double) {
        for name in order {
            writeBatch(of: name)
            if let notice = entries[name]?.writer?.flushIfDue(now: now) { Self.report(notice) }
        }
    }

    /// Writes every client's batch (`fsync = interval`); the daemon calls it
    /// whenever its source pauses, so batches never wait for the tick live.
    public func writeBatches() {
        guard fsyncPolicy == .interval else { return }
        for name in order { writeBatch(of: name) }
    }

    /// Writes `client`'s batch, if it has one.
    private func writeBatch(of client: String) {
        guard let entry = entries[client], entry.batchLines > 0 else { return }
        entries[client]?.batch.removeAll(keepingCapacity: true)
        entries[client]?.batchLines = 0
        guard let writer = entry.writer else { return }
        if let notice = writer.appendLines(entry.batch, count: entry.batchLines) { Self.report(notice) }
    }

    /// Reopens every log at its path (SIGHUP after logrotate); a log that
    /// could not be opened before is tried again. Returns how many are open.
    @discardableResult
    public func reopenAll() -> Int {
        var open = 0
        for name in order {
            // Lines made before the signal go to the file they were made for.
            writeBatch(of: name)
            guard var entry = entries[name] else { continue }
            if let writer = entry.writer {
                do {
                    let dropped = try writer.reopen()
                    if dropped > 0 { Self.report(.repaired(path: writer.path, droppedBytes: dropped)) }
                    open += 1
                } catch {
                    Diagnostics.error("cannot reopen \(entry.path) (\(error)); still writing the file open before")
                    open += 1
                }
            } else {
                do {
                    entry.writer = try Self.open(entry.path, fsync: fsyncPolicy)
                    entries[name] = entry
                    Diagnostics.notice("opened \(entry.path), which could not be opened before")
                    open += 1
                } catch {
                    Diagnostics.error("cannot open \(entry.path) (\(error)); fixes for \(name) are not logged")
                }
            }
        }
        return open
    }

    /// Takes a reloaded configuration: logs of removed clients are closed,
    /// new clients' logs opened, a log whose path or fsync policy changed is
    /// closed and opened anew. A log that cannot be opened is reported and the
    /// client's fixes are not logged until a reopen succeeds.
    public func reconfigure(_ config: DaemonConfig) {
        let policy = config.fsync
        for name in order { writeBatch(of: name) }
        var newEntries: [String: Entry] = [:]
        var newOrder: [String] = []
        for client in config.clients where newEntries[client.name] == nil {
            newOrder.append(client.name)
            let path = config.logPath(forClient: client.name, logDirectory: logDirectoryOverride)
            let old = entries.removeValue(forKey: client.name)
            if let path, let old, old.path == path, policy == fsyncPolicy, old.writer != nil {
                newEntries[client.name] = old
                continue
            }
            if let writer = old?.writer, let notice = writer.close() { Self.report(notice) }
            guard let path else { continue }
            do {
                newEntries[client.name] = Entry(path: path, writer: try Self.open(path, fsync: policy))
            } catch {
                newEntries[client.name] = Entry(path: path, writer: nil)
                Diagnostics.error(
                    "\(OpenError(client: client.name, path: path, error: error)); its fixes are not logged until SIGHUP opens it")
            }
        }
        for (_, removed) in entries {
            if let writer = removed.writer, let notice = writer.close() { Self.report(notice) }
        }
        entries = newEntries
        order = newOrder
        fsyncPolicy = policy
        batchLimit = Self.batchLimit(clients: order.count)
    }

    /// Writes what can be written, syncs and closes every log.
    public func closeAll() {
        for name in order {
            writeBatch(of: name)
            guard let writer = entries[name]?.writer else { continue }
            if let notice = writer.close() { Self.report(notice) }
        }
    }

    private static func open(_ path: String, fsync: FsyncPolicy) throws(SystemError) -> LogWriter {
        let writer = try LogWriter(path: path, fsync: fsync)
        if let notice = writer.repairNotice { report(notice) }
        return writer
    }

    /// Logs a writer's notice at its level.
    static func report(_ notice: LogWriter.Notice) {
        Diagnostics.log(notice.level, notice.description)
    }
}
