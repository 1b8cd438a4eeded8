#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem

/// Every configured client's coordinate log (docs/design.md §6): one `LogWriter` per
/// client that has a `log`, opened at start, reopened on SIGHUP, changed by a
/// reload, closed at shutdown. Every notice a writer returns is logged here,
/// once, at its level; a log that starts to fail or works again is also kept
/// as a `LogWriteChange` for the daemon's watchers (`takeChanges`). Used by
/// `run` and `replay` alike (through `EffectCarrier`).
///
/// Writes: with `fsync = always` each line is written and synced before
/// `append` returns (on disk before the next fix). With `fsync = interval`
/// (and in replay) lines are gathered per client and written in batches of
/// whole lines — whenever the daemon's source pauses (`writeBatches`, so a
/// live fix is written at once and a burst in one write), when a batch
/// reaches `batchLimit` bytes (replay), and at every tick, reopen,
/// reconfigure and close — so each `write(2)` holds only whole lines and a
/// crash loses at most the lines of the moment, and a power cut what
/// `fsync = interval` allows anyway. A sync is made right after a pause's
/// write once the oldest unsynced line is about a second old, else by the
/// tick at `nextDeadline` (`LogWriter.flushIfDue`).
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
        var name: String
        /// The file written (a split log's current file; its pattern before the first line).
        var path: String?
        var writer: LogWriter?
        /// A split log's names and cut (`split`); nil for one file, opened at start.
        var pattern: LogFilePattern?
        /// A split log's current file, once a line chose it.
        var file: LogFilePattern.File?
        /// Bytes in a split log's current file, with those batched for it.
        var fileBytes: Int64 = 0
        /// What ends this client's record lines (`LogRecord.lineEnding`).
        var ending: [UInt8]
        /// Whole lines not yet handed to the writer (`fsync = interval`): the
        /// first `batchCount` bytes of `batch`, whose count only grows (the
        /// rest is room, copied into without `append`'s per-call work).
        var batch: [UInt8] = []
        var batchCount = 0
        var batchLines = 0
        /// Lines written and lost by this client's earlier writers (a reload replaced the log), plus
        /// lines lost while no log was open.
        var earlierWritten = 0
        var earlierLost = 0
        /// Why the log is not open, and since when (UTC seconds), when opening it failed.
        var openError: SystemError?
        var openFailedSince: Double?
    }

    /// Bytes a client's batch may reach before it is written: 64 KiB, less
    /// with many clients (at most about 4 MiB held in all: on ext4 a
    /// `write(2)` costs about 10 µs of system time whatever its size, so
    /// 40 KiB batches for 100 clients take a third less than 10 KiB ones).
    public private(set) var batchLimit = 1 << 16

    /// The fsync policy new writers get.
    public private(set) var fsyncPolicy: FsyncPolicy
    /// Replay's `--log-dir`: the directory every client's log goes to instead of `log_dir`.
    public let logDirectoryOverride: String?
    // `@exclusivity(unchecked)` here: what the fix path mutates on every fix, touched only by
    // its one owner (behind DaemonCore's lock, or a replay) and never re-entrantly, so the
    // runtime's per-access check bought nothing and cost about a tenth of the instructions
    // per fix (docs/ARCHITECTURE.md, "Threads and who owns what"; docs/performance.md).
    /// Every client, in config order; a client's slot is its place here.
    @exclusivity(unchecked) private var entries: [Entry] = []
    private var slots: [String: Int] = [:]
    /// Changes whenever a reload changes the slots (see `slot(of:)`).
    public private(set) var generation = 0
    /// Logs that started to fail or work again since the last `takeChanges()`, in order.
    private var changes: [LogWriteChange] = []
    /// At most this many are kept between takes (a replay takes none): the oldest go first.
    static let changeLimit = 64

    /// Whether a client's log is split (`split`): its lines go through `place` first.
    private var hasSplits = false

    /// Opens the log of every client of `config` that has one (creating files
    /// and directories as needed, repairing a torn last line and saying so).
    /// Throws every log that cannot be opened; nothing is left open then. A
    /// split log (`split`) opens its first file when its first line comes: the
    /// file is the one of that line's own time (in replay, the recording's).
    public init(config: DaemonConfig, logDirectory: String? = nil, fsync: FsyncPolicy? = nil) throws(OpenErrors) {
        fsyncPolicy = fsync ?? config.fsync
        logDirectoryOverride = logDirectory
        var failures: [OpenError] = []
        for client in config.clients where slots[client.name] == nil {
            slots[client.name] = entries.count
            let path = config.logPath(forClient: client.name, logDirectory: logDirectory)
            var entry = Entry(name: client.name, path: path, writer: nil, ending: LogRecord.lineEnding(client: client.name))
            entry.pattern = Self.splitPattern(config, client: client.name, logDirectory: logDirectory)
            if let path, entry.pattern == nil {
                do {
                    entry.writer = try Self.open(path, fsync: fsyncPolicy)
                } catch {
                    failures.append(OpenError(client: client.name, path: path, error: error))
                }
            }
            entries.append(entry)
        }
        guard failures.isEmpty else {
            closeAll()
            throw OpenErrors(errors: failures)
        }
        batchLimit = Self.batchLimit(clients: entries.count)
        hasSplits = entries.contains { $0.pattern != nil }
    }

    /// A client's log pattern when it is split; nil for one file (or no log).
    private static func splitPattern(_ config: DaemonConfig, client: String, logDirectory: String?) -> LogFilePattern? {
        guard let pattern = config.logPattern(forClient: client, logDirectory: logDirectory), pattern.split != nil else { return nil }
        return pattern
    }

    private static func batchLimit(clients: Int) -> Int {
        max(4096, min(1 << 16, (1 << 22) / max(1, clients)))
    }

    /// The path of a client's log, if it has one.
    public func path(of client: String) -> String? {
        slots[client].flatMap { entries[$0].path }
    }

    /// Whether the client at `slot` (`slot(of:)`) has a log path.
    func hasPath(slot: Int) -> Bool {
        entries[slot].path != nil
    }

    /// The writer of a client's log, if it is open.
    public func writer(of client: String) -> LogWriter? {
        slots[client].flatMap { entries[$0].writer }
    }

    /// The clients, in config order.
    public var clients: [String] { entries.map(\.name) }

    /// What `status` says about a client's log (since the daemon started); `nil` when it has none.
    public func writeStatus(of client: String) -> LogWriteStatus? {
        guard let slot = slots[client] else { return nil }
        return Self.writeStatus(of: entries[slot])
    }

    private static func writeStatus(of entry: Entry) -> LogWriteStatus? {
        guard let path = entry.path else { return nil }
        guard let writer = entry.writer else {
            return LogWriteStatus(
                path: path, open: false, written: entry.earlierWritten, lost: entry.earlierLost,
                error: entry.openError?.description, since: entry.openFailedSince)
        }
        var status = writer.writeStatus
        status.written += entry.earlierWritten
        status.lost += entry.earlierLost
        return status
    }

    /// The logs that started to fail or work again since the last call, in order, each with
    /// its status then (for `log` events on `watch`).
    public func takeChanges() -> [LogWriteChange] {
        guard !changes.isEmpty else { return [] }
        defer { changes.removeAll() }
        return changes
    }

    /// Every log failing now, with its `status` line: what a new watcher is told first.
    public var failing: [LogWriteChange] {
        entries.compactMap { entry in
            guard let status = Self.writeStatus(of: entry), status.failing else { return nil }
            return LogWriteChange(client: entry.name, status: status, message: status.failureLine ?? "")
        }
    }

    /// A client's place among the logs, for `append(prefix:slots:)`: valid
    /// until `generation` changes (a reload); nil for a client not configured.
    public func slot(of client: String) -> Int? {
        slots[client]
    }

    /// Appends one record line (ending in `\n`) to `client`'s log: written
    /// now with `fsync = always`, batched with `fsync = interval`. Returns
    /// false when the client has no open log (the line is not kept). A split
    /// log puts it in the file of `time` (the record's own time, UTC seconds).
    @discardableResult
    public func append(_ line: [UInt8], client: String, time: Double? = nil) -> Bool {
        guard let slot = slots[client] else { return false }
        if let time, entries[slot].pattern != nil { place(slot, time: time, bytes: line.count) }
        guard let writer = entries[slot].writer else {
            if entries[slot].path != nil { entries[slot].earlierLost += 1 }
            return false
        }
        guard fsyncPolicy == .interval, line.last == UInt8(ascii: "\n") else {
            if let notice = writer.append(line) { report(notice, slot: slot) }
            return true
        }
        let limit = batchLimit
        let notice = line.withUnsafeBufferPointer { Self.batch($0, ending: false, into: &entries[slot], limit: limit) }
        if let notice { report(notice, slot: slot) }
        return true
    }

    /// Appends one record line to the log at each of `slots`, in order: the
    /// line is `prefix` (`LogRecord.appendLinePrefix`) and that client's
    /// `LogRecord.lineEnding`. Made for a fix delivered to many clients at
    /// one accuracy: the shared part is copied once into each client's
    /// batch, and no line is made first. Clients without an open log are skipped.
    /// A split log puts the line in the file of `time`, the fix's own time.
    public func append(prefix: [UInt8], slots: [Int], time: Double? = nil) {
        if hasSplits, let time {
            for slot in slots where entries[slot].pattern != nil {
                place(slot, time: time, bytes: prefix.count + entries[slot].ending.count)
            }
        }
        let interval = fsyncPolicy == .interval
        let limit = batchLimit
        guard interval else {
            for slot in slots {
                guard let writer = entries[slot].writer else {
                    // A log that could not be opened: the line is lost, and counted.
                    if entries[slot].path != nil { entries[slot].earlierLost += 1 }
                    continue
                }
                if let notice = writer.append(prefix + entries[slot].ending) { report(notice, slot: slot) }
            }
            return
        }
        var notices: [(slot: Int, notice: LogWriter.Notice)] = []
        prefix.withUnsafeBufferPointer { prefix in
            entries.withUnsafeMutableBufferPointer { entries in
                for slot in slots {
                    guard entries[slot].writer != nil else {
                        // A log that could not be opened: the line is lost, and counted.
                        if entries[slot].path != nil { entries[slot].earlierLost += 1 }
                        continue
                    }
                    if let notice = Self.batch(prefix, ending: true, into: &entries[slot], limit: limit) {
                        notices.append((slot, notice))
                    }
                }
            }
        }
        for (slot, notice) in notices { report(notice, slot: slot) }
    }

    /// Adds the line `line` (and, when `ending`, the entry's `ending`) to
    /// `entry`'s batch, writing the batch first when the line would take it past `limit`
    /// (the writer's notice, if that write had one).
    private static func batch(
        _ line: UnsafeBufferPointer<UInt8>, ending: Bool, into entry: inout Entry, limit: Int
    ) -> LogWriter.Notice? {
        let size = line.count + (ending ? entry.ending.count : 0)
        var notice: LogWriter.Notice?
        if entry.batchCount > 0, entry.batchCount + size > limit { notice = write(&entry) }
        let start = entry.batchCount
        let end = start + size
        if end > entry.batch.count {
            // More room (made once: the count never shrinks): twice as much, up to the limit (or the line).
            let room = max(min(max(2 * entry.batch.count, 4096), limit), end)
            entry.batch.append(contentsOf: repeatElement(0, count: room - entry.batch.count))
        }
        let middle = start + line.count
        entry.batch.withUnsafeMutableBytes { batch in
            UnsafeMutableRawBufferPointer(rebasing: batch[start..<middle]).copyMemory(from: UnsafeRawBufferPointer(line))
            if ending {
                entry.ending.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: batch[middle..<end]).copyMemory(from: $0) }
            }
        }
        entry.batchCount = end
        entry.batchLines += 1
        return notice
    }

    /// Writes `entry`'s batch, if it has one; the writer's notice, if it had one.
    private static func write(_ entry: inout Entry) -> LogWriter.Notice? {
        let count = entry.batchLines
        guard count > 0 else { return nil }
        entry.batchLines = 0
        let end = entry.batchCount
        entry.batchCount = 0
        return entry.writer?.appendLines(entry.batch[0..<end], count: count)
    }

    /// Before a line of `time` and `bytes` bytes goes to the split log at `slot`: the file of
    /// the line's own time is the open one. When the line cannot go on in the current file (its
    /// time is in another period — later, or earlier after the receiver's time went back — or a
    /// size cut is due), the lines batched for that file are written to it, it is closed, and
    /// the line's file is opened (appended to if it exists): named in the journal and as a
    /// `log` event. A file that cannot be opened loses its lines, counted, until the next
    /// period's file or SIGHUP opens.
    private func place(_ slot: Int, time: Double, bytes: Int) {
        guard let pattern = entries[slot].pattern, time.isFinite else { return }
        if let current = entries[slot].file,
           !pattern.needsCut(current, time: time, fileBytes: entries[slot].fileBytes, bytes: bytes) {
            entries[slot].fileBytes += Int64(bytes)
            return
        }
        let previous = entries[slot].file
        writeBatch(slot)
        var next = pattern.file(for: time, after: previous)
        retire(slot)
        var writer: LogWriter?
        var failure: SystemError?
        var size: Int64 = 0
        // A size cut skips files of an earlier run that are full already (at most a thousand).
        for _ in 0..<1000 {
            do {
                let opened = try Self.open(next.path, fsync: fsyncPolicy)
                size = opened.fileSize
                if !pattern.needsCut(next, time: time, fileBytes: size, bytes: bytes) || next.period != nil {
                    writer = opened
                    break
                }
                _ = opened.close()
                next = pattern.file(for: time, after: next)
            } catch {
                failure = error
                break
            }
        }
        entries[slot].file = next
        entries[slot].path = next.path
        entries[slot].writer = writer
        entries[slot].fileBytes = size + Int64(bytes)
        if let writer {
            entries[slot].openError = nil
            entries[slot].openFailedSince = nil
            let message = Self.cutMessage(client: entries[slot].name, path: writer.path, next: next, previous: previous, time: time, split: pattern.split)
            Diagnostics.log.notice(message)
            noteChange(entries[slot], message: message)
        } else {
            let error = failure ?? SystemError("open \(next.path)", errno: EEXIST)
            let already = entries[slot].openError != nil
            entries[slot].openError = error
            entries[slot].openFailedSince = entries[slot].openFailedSince ?? SystemClock.utc()
            let message = "\(OpenError(client: entries[slot].name, path: next.path, error: error)); its fixes are not logged until the next file or SIGHUP opens"
            Diagnostics.log.error(message)
            if !already { noteChange(entries[slot], message: message) }
        }
    }

    /// Closes the writer at `slot` (its lines written), keeping its counts for `status`.
    private func retire(_ slot: Int) {
        guard let writer = entries[slot].writer else { return }
        if let notice = writer.close() { Self.report(notice) }
        entries[slot].earlierWritten += writer.linesWritten
        entries[slot].earlierLost += writer.linesLost
        entries[slot].writer = nil
    }

    /// The journal's sentence for a split log's new file.
    private static func cutMessage(
        client: String, path: String, next: LogFilePattern.File, previous: LogFilePattern.File?, time: Double, split: LogSplit?
    ) -> String {
        let rule = split.map { "split = \($0)" } ?? "no split"
        guard let previous else { return "the log of client \(client) is \(path) (\(rule))" }
        if let period = next.period, let before = previous.period, period.lowerBound < before.lowerBound {
            return "the log of client \(client) goes back to \(path): the receiver's time went back to "
                + "\(UTCTime.format(time, fractionDigits: 0)), and each line goes to the file of its own time (\(rule))"
        }
        if next.period == nil, next.base == previous.base {
            return "the log of client \(client) goes on in \(path): \(previous.path) reached its size (\(rule))"
        }
        return "the log of client \(client) goes on in \(path) from \(UTCTime.format(next.period?.lowerBound ?? time, fractionDigits: 0)) (\(rule))"
    }

    /// The tick's duty: writes the batches, retries held lines and syncs
    /// per `fsync = interval` (`LogWriter.flushIfDue`).
    public func flushIfDue(now: Double) {
        for slot in entries.indices {
            writeBatch(slot)
            flush(slot, now: now)
        }
    }

    /// Writes every client's batch (`fsync = interval`) and makes the syncs
    /// due (`LogWriter.flushIfDue`): the daemon calls it whenever its
    /// source pauses, so batches never wait for a tick live and, at one
    /// epoch a second, every second epoch's write syncs it and the one before.
    public func writeBatches(now: Double) {
        guard fsyncPolicy == .interval else { return }
        // Every log, one with no new line too: its reader may have come for the sync due (`nextDeadline`).
        flushIfDue(now: now)
    }

    /// When a log next needs `flushIfDue` (monotonic seconds; infinity:
    /// not until a line comes): now for lines still batched, else the
    /// earliest `LogWriter.nextDeadline`.
    public func nextDeadline(now: Double) -> Double {
        var next = Double.infinity
        // By index: an `Entry` copied out would retain its arrays and strings, at every pause.
        for slot in entries.indices {
            guard let writer = entries[slot].writer else { continue }
            if entries[slot].batchLines > 0 { return now }
            next = min(next, writer.nextDeadline(now: now))
        }
        return next
    }

    private func flush(_ slot: Int, now: Double) {
        if let notice = entries[slot].writer?.flushIfDue(now: now) { report(notice, slot: slot) }
    }

    /// Writes the batch at `slot`, if it has one.
    private func writeBatch(_ slot: Int) {
        if let notice = Self.write(&entries[slot]) { report(notice, slot: slot) }
    }

    /// Reopens every log at its path (SIGHUP after logrotate); a log that
    /// could not be opened before is tried again. Returns how many are open.
    @discardableResult
    public func reopenAll() -> Int {
        var open = 0
        for slot in entries.indices {
            // Lines made before the signal go to the file they were made for.
            writeBatch(slot)
            guard let path = entries[slot].path else { continue }
            // A split log before its first line has no file yet.
            if entries[slot].pattern != nil && entries[slot].file == nil { continue }
            if let writer = entries[slot].writer {
                do {
                    let dropped = try writer.reopen()
                    if dropped > 0 { Self.report(.repaired(path: writer.path, droppedBytes: dropped)) }
                    open += 1
                } catch {
                    Diagnostics.log.error("cannot reopen \(path) (\(error)); still writing the file open before")
                    open += 1
                }
            } else {
                do {
                    entries[slot].writer = try Self.open(path, fsync: fsyncPolicy)
                    entries[slot].openError = nil
                    entries[slot].openFailedSince = nil
                    let message = "opened \(path), which could not be opened before"
                    Diagnostics.log.notice(message)
                    noteChange(entries[slot], message: message)
                    open += 1
                } catch {
                    entries[slot].openError = error
                    entries[slot].openFailedSince = entries[slot].openFailedSince ?? SystemClock.utc()
                    Diagnostics.log.error("cannot open \(path) (\(error)); fixes for \(entries[slot].name) are not logged")
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
        for slot in entries.indices { writeBatch(slot) }
        var old: [String: Entry] = [:]
        for entry in entries { old[entry.name] = entry }
        var newEntries: [Entry] = []
        var newSlots: [String: Int] = [:]
        for client in config.clients where newSlots[client.name] == nil {
            newSlots[client.name] = newEntries.count
            let path = config.logPath(forClient: client.name, logDirectory: logDirectoryOverride)
            let pattern = Self.splitPattern(config, client: client.name, logDirectory: logDirectoryOverride)
            let kept = old.removeValue(forKey: client.name)
            if let path, let kept, kept.pattern == pattern, kept.pattern != nil || kept.path == path, policy == fsyncPolicy,
               kept.writer != nil || kept.pattern != nil {
                newEntries.append(kept)
                continue
            }
            if let writer = kept?.writer, let notice = writer.close() { Self.report(notice) }
            var entry = Entry(name: client.name, path: path, writer: nil, ending: LogRecord.lineEnding(client: client.name))
            entry.pattern = pattern
            if let kept, kept.path == path || (kept.pattern != nil && kept.pattern == pattern) {
                // The same log under a new fsync policy, or one that could not be opened: its counts go on.
                entry.earlierWritten = kept.earlierWritten + (kept.writer?.linesWritten ?? 0)
                entry.earlierLost = kept.earlierLost + (kept.writer?.linesLost ?? 0)
                entry.openError = kept.openError
                entry.openFailedSince = kept.openFailedSince
            }
            if let path, pattern == nil {
                do {
                    entry.writer = try Self.open(path, fsync: policy)
                    entry.openError = nil
                    entry.openFailedSince = nil
                } catch {
                    let already = entry.openError != nil
                    entry.openError = error
                    entry.openFailedSince = entry.openFailedSince ?? SystemClock.utc()
                    let message = "\(OpenError(client: client.name, path: path, error: error)); its fixes are not logged until SIGHUP opens it"
                    Diagnostics.log.error(message)
                    if !already { noteChange(entry, message: message) }
                }
            }
            newEntries.append(entry)
        }
        for (_, removed) in old {
            if let writer = removed.writer, let notice = writer.close() { Self.report(notice) }
        }
        entries = newEntries
        slots = newSlots
        generation += 1
        fsyncPolicy = policy
        batchLimit = Self.batchLimit(clients: entries.count)
        hasSplits = entries.contains { $0.pattern != nil }
    }

    /// Writes what can be written, syncs and closes every log.
    public func closeAll() {
        for slot in entries.indices {
            writeBatch(slot)
            guard let writer = entries[slot].writer else { continue }
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
        Diagnostics.log.log(notice.level, notice.description)
    }

    /// Logs the notice of the writer at `slot`, and keeps a change to failing or back for the watchers.
    private func report(_ notice: LogWriter.Notice, slot: Int) {
        Self.report(notice)
        switch notice {
        case .failed, .recovered: noteChange(entries[slot], message: notice.description)
        case .closedWithUnwrittenLines, .repaired: break
        }
    }

    private func noteChange(_ entry: Entry, message: String) {
        guard let status = Self.writeStatus(of: entry) else { return }
        if changes.count >= Self.changeLimit { changes.removeFirst() }
        changes.append(LogWriteChange(client: entry.name, status: status, message: message))
    }
}
