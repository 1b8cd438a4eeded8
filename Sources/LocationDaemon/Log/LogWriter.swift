#if canImport(Glibc)
import Glibc
#endif
import CSupport
import LocationConfig
import LocationCore
import LocationProtocol
import LocationSystem

/// One client's coordinate log (docs/design.md §6): JSON lines appended whole with
/// `O_APPEND`, forced to disk per the `fsync` policy.
///
/// Crash safety: a line — or a batch of whole lines (`appendLines`) — goes
/// to the kernel in one `write(2)` (looping on a short write), so a write
/// never ends inside a line; when a write fails part-way (disk full, file-size limit,
/// I/O error) the file is cut back to where the line began, so the log never
/// holds part of a line. At open and reopen a torn last line left by a crash
/// or power cut is cut off, and `repairedBytes` says how many bytes went.
///
/// Failure episodes: when writing fails, `append` returns one `.failed`
/// notice for the caller to log; later failures are silent. Lines that could
/// not be written are held in memory (at most `holdLimit` lines and
/// `holdByteLimit` bytes; beyond that the oldest are dropped and counted) and
/// retried, oldest first, on every `append` and `flushIfDue` (at least
/// every `retryInterval`: `nextDeadline`). A retry first makes sure its
/// line fits (`reserve`): one that cannot writes nothing, so while the disk
/// stays full a reader of the log never sees a piece of a line come and go
/// hundreds of times a second. The first
/// success after an episode returns one `.recovered` notice. Lines that were
/// already written are never touched.
///
/// Not thread-safe: one owner (the daemon core) calls it.
public final class LogWriter {
    /// Something the caller should tell a person about, once.
    public enum Notice: Sendable, Hashable, CustomStringConvertible {
        /// Writing (or syncing) began to fail; later failures are silent until `.recovered`.
        case failed(path: String, error: SystemError, held: Int)
        /// Writing works again: `caughtUp` held lines were written, `lost` lines were dropped during the episode.
        case recovered(path: String, caughtUp: Int, lost: Int)
        /// The log was closed with lines that were never written.
        case closedWithUnwrittenLines(path: String, lost: Int)
        /// Opening cut off a torn last line left by a crash or power cut.
        case repaired(path: String, droppedBytes: Int)

        /// The priority to log it at.
        public var level: Diagnostics.Level {
            switch self {
            case .failed: .error
            case .recovered: .notice
            case .closedWithUnwrittenLines, .repaired: .warning
            }
        }

        /// One sentence for the diagnostics.
        public var description: String {
            switch self {
            case .failed(let path, let error, let held):
                let what = error.operation.hasPrefix("fdatasync") || error.operation.hasPrefix("fsync")
                    ? "cannot sync \(path) to disk (\(String(cString: strerror(error.errno)))): lines written lately may not survive a power cut"
                    : "cannot write \(path) (\(String(cString: strerror(error.errno)))): no partial line is left in it"
                return "\(what); holding new lines in memory (\(held) now, at most \(LogWriter.holdLimit)) and retrying; "
                    + "this is reported once until writing works again"
            case .recovered(let path, let caughtUp, let lost):
                let lostText = lost == 0 ? "no line lost" : "\(lost) line\(lost == 1 ? "" : "s") lost"
                return "writing \(path) works again: \(caughtUp) held line\(caughtUp == 1 ? "" : "s") written, \(lostText)"
            case .closedWithUnwrittenLines(let path, let lost):
                return "closed \(path) with \(lost) line\(lost == 1 ? "" : "s") that could not be written"
            case .repaired(let path, let droppedBytes):
                return "repaired \(path): dropped \(droppedBytes) byte\(droppedBytes == 1 ? "" : "s") of a torn last line"
            }
        }
    }

    /// At most this many unwritten lines are held for retry.
    public static let holdLimit = 1024
    /// At most this many bytes of unwritten lines are held for retry.
    public static let holdByteLimit = 1 << 20
    /// With `fsync = interval`, how long a written line may wait for its
    /// sync, in seconds, give or take `syncSlack`; lines written meanwhile
    /// share that sync, so the log is synced at most about this often.
    public static let syncInterval: Double = 1
    /// How far a sync may come before or after `syncInterval` is up: the
    /// lines of a 1 Hz receiver come a few milliseconds early as often as
    /// late, and each second line's write then syncs both (one sync every two
    /// epochs, made as a line is written); without a next line the tick syncs
    /// at `syncInterval + syncSlack`.
    public static let syncSlack: Double = 0.1
    /// How often held lines, and a sync that failed, are tried again (seconds).
    public static let retryInterval: Double = 1
    /// Mode of a newly created log file (less the umask).
    public static let fileMode: mode_t = 0o640
    /// Mode of newly created parent directories (less the umask).
    public static let directoryMode: mode_t = 0o755

    /// The log's path.
    public let path: String
    /// When lines are forced to disk.
    public let fsyncPolicy: FsyncPolicy
    /// Bytes of a torn last line cut off by the last open or reopen (0: the file was whole).
    public private(set) var repairedBytes: Int = 0
    // `@exclusivity(unchecked)` here: what the fix path mutates on every fix, touched only by
    // its one owner (behind DaemonCore's lock, or a replay) and never re-entrantly, so the
    // runtime's per-access check bought nothing and cost about a tenth of the instructions
    // per fix (docs/ARCHITECTURE.md, "Threads and who owns what"; docs/performance.md).
    /// Lines written since the writer was made.
    @exclusivity(unchecked) public private(set) var linesWritten: Int = 0
    /// Lines dropped since the writer was made (the hold was full, or closed while failing).
    public private(set) var linesLost: Int = 0
    /// Successful syncs (`fdatasync`) of the log so far.
    public private(set) var syncs: Int = 0
    /// Writes that reached the file (one line, or one batch of lines, each).
    @exclusivity(unchecked) public private(set) var writes: Int = 0
    /// Writes that failed part-way and were cut back (`rollBack`): a reader of the
    /// log may have seen each piece before it went. A retry that cannot fit makes none.
    public private(set) var cutBacks: Int = 0
    /// Whether a failure episode is under way.
    public private(set) var isFailing = false
    /// During a failure episode, the latest error.
    public private(set) var lastError: SystemError?
    /// During a failure episode, when it began (UTC seconds, the system clock).
    public private(set) var failingSince: Double?

    private var fd: Int32
    @exclusivity(unchecked) private var held: [[UInt8]] = []
    @exclusivity(unchecked) private var heldStart = 0
    @exclusivity(unchecked) private var heldBytes = 0
    private var needsTailRepair = false
    @exclusivity(unchecked) private var unsynced = false
    /// When `flushIfDue` first found the lines now unsynced (after a failed sync: when it
    /// failed), monotonic seconds; nil while everything written is synced.
    private var unsyncedSince: Double?
    private var episodeCaughtUp = 0
    private var episodeLost = 0

    /// Opens (creating it and its directories as needed) the log at `path`
    /// and cuts off a torn last line (see `repairedBytes`).
    public init(path: String, fsync: FsyncPolicy) throws(SystemError) {
        self.path = path
        self.fsyncPolicy = fsync
        fd = try Self.openLog(path)
        do {
            repairedBytes = try Self.repairTail(fd: fd, path: path)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// `.repaired` when the last open or reopen cut off a torn last line, for the caller to log.
    public var repairNotice: Notice? {
        repairedBytes > 0 ? .repaired(path: path, droppedBytes: repairedBytes) : nil
    }

    /// The file's size in bytes now (0 when closed or it cannot be read): where a size `split`
    /// starts counting a file it opened again.
    public var fileSize: Int64 {
        var info = stat()
        guard fd >= 0, fstat(fd, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }

    /// Lines waiting to be written (held during a failure episode).
    public var heldLines: Int { held.count - heldStart }

    /// What `status` says about this log: lines written, held and lost, and while failing the error and since when.
    public var writeStatus: LogWriteStatus {
        LogWriteStatus(
            path: path, open: fd >= 0, written: linesWritten, held: heldLines, lost: linesLost,
            error: isFailing ? lastError?.description : nil, since: isFailing ? failingSince : nil)
    }

    /// Appends one line: one JSON record, with or without its `\n` (pass it
    /// to save a copy); it must not contain another `\n`. Returns a notice
    /// when a failure episode starts or ends; otherwise `nil`.
    public func append(_ line: [UInt8]) -> Notice? {
        let newline = UInt8(ascii: "\n")
        let body = line.last == newline ? line.dropLast() : line[...]
        precondition(!body.contains(newline), "a log line must not contain a newline; the record encoder escapes them")
        guard fd >= 0 else {
            // Closed: nothing more can be written.
            linesLost += 1
            return nil
        }
        let whole = line.last == newline ? line : line + [newline]
        if heldLines == 0 && !needsTailRepair {
            // The usual path: nothing held, write straight away.
            if let error = writeWhole(whole) {
                hold(whole)
                return fail(error)
            }
            linesWritten += 1
            unsynced = true
            if fsyncPolicy == .always, let error = sync() { return fail(error) }
            return recoverIfFailing()
        }
        hold(whole)
        return drain()
    }

    /// Appends `count` whole lines — `bytes`, each line ending in `\n` — in
    /// one write: the batches of `fsync = interval` and replay. A write that
    /// fails part-way is cut back to where the batch began and its lines are
    /// held one by one, as `append` holds a line. Syncs per the policy.
    public func appendLines(_ bytes: [UInt8], count: Int) -> Notice? {
        appendLines(bytes[...], count: count)
    }

    /// `appendLines(_:count:)` for part of a buffer the caller reuses
    /// (`ClientLogs`' batches): the bytes are written from where they are.
    public func appendLines(_ bytes: ArraySlice<UInt8>, count: Int) -> Notice? {
        guard !bytes.isEmpty else { return nil }
        precondition(bytes.last == UInt8(ascii: "\n"), "a batch holds whole lines only")
        guard fd >= 0 else {
            linesLost += count
            return nil
        }
        if heldLines == 0 && !needsTailRepair {
            if let error = writeWhole(bytes) {
                holdLines(of: Array(bytes))
                return fail(error)
            }
            linesWritten += count
            unsynced = true
            if fsyncPolicy == .always, let error = sync() { return fail(error) }
            return recoverIfFailing()
        }
        holdLines(of: Array(bytes))
        return drain()
    }

    /// Appends one line of UTF-8 text (see `append(_: [UInt8])`).
    public func append(_ line: String) -> Notice? {
        append(Array(line.utf8))
    }

    /// `fsync = interval`'s duty and the retry of held lines, on the
    /// thread that owns the writer: from the fix path right after a pause's
    /// write (`ClientLogs.writeBatches`), and from the daemon's tick when
    /// `nextDeadline` comes (no line followed, or lines are held). Retries
    /// held lines, and syncs once the oldest unsynced line is
    /// `syncInterval` old, less `syncSlack`. `now` is monotonic seconds.
    ///
    /// The sync is made here, on the writer's own descriptor: the writer has
    /// one owner (the daemon core's lock, or a replay), so no `reopen` or
    /// `close` of it can run while `fdatasync` does — they are methods of
    /// this object, which its owner never calls from two threads at once or
    /// re-entrantly; no duplicate of the descriptor is needed to keep it open.
    public func flushIfDue(now: Double) -> Notice? {
        if heldLines > 0 || needsTailRepair {
            if let notice = drain() { return notice }
        }
        guard fd >= 0, unsynced else { return nil }
        let since = unsyncedSince ?? now
        unsyncedSince = since
        guard now - since >= Self.syncInterval - Self.syncSlack else { return nil }
        if let error = sync() {
            // Tried again when another interval is up, not at every pause.
            unsyncedSince = now
            return fail(error)
        }
        guard heldLines == 0, !needsTailRepair else { return nil }
        return recoverIfFailing()
    }

    /// When `flushIfDue` next has work (monotonic seconds; infinity: none
    /// until a line is written): with lines unsynced, `syncInterval` plus
    /// `syncSlack` after `flushIfDue` first found them — so a line is synced
    /// within that even when none follows it, and a sync that failed is tried
    /// again then, with either policy — or now, if it has not seen them yet;
    /// with lines held, `retryInterval` from `now`, the time the caller last
    /// gave it a chance. The daemon's tick comes then and not before
    /// (`EngineOwner.nextDeadline`).
    public func nextDeadline(now: Double) -> Double {
        guard fd >= 0 else { return .infinity }
        if heldLines > 0 || needsTailRepair { return now + Self.retryInterval }
        guard unsynced else { return .infinity }
        return unsyncedSince.map { $0 + Self.syncInterval + Self.syncSlack } ?? now
    }

    /// Closes the log and opens the same path again (SIGHUP after logrotate
    /// renamed the file: the old file is left behind, a new one starts).
    /// Syncs the old file first. On failure the writer keeps the old file.
    /// Returns the bytes of a torn last line cut off the reopened file.
    @discardableResult
    public func reopen() throws(SystemError) -> Int {
        let opened = try Self.openLog(path)
        let dropped: Int
        do {
            dropped = try Self.repairTail(fd: opened, path: path)
        } catch {
            Glibc.close(opened)
            throw error
        }
        if fd >= 0 {
            if unsynced { _ = sync() }
            Glibc.close(fd)
        }
        fd = opened
        unsynced = false
        unsyncedSince = nil
        needsTailRepair = false
        repairedBytes = dropped
        return dropped
    }

    /// Writes what it can of the held lines, syncs and closes. Returns a
    /// notice if lines remained unwritten. Later calls do nothing; lines
    /// appended after closing are counted as lost.
    public func close() -> Notice? {
        guard fd >= 0 else { return nil }
        if heldLines > 0 || needsTailRepair { _ = drain() }
        if unsynced { _ = sync() }
        Glibc.close(fd)
        fd = -1
        let unwritten = heldLines
        guard unwritten > 0 else { return nil }
        linesLost += unwritten
        held.removeAll()
        heldStart = 0
        heldBytes = 0
        return .closedWithUnwrittenLines(path: path, lost: unwritten)
    }

    // MARK: - Episodes and the hold

    private func fail(_ error: SystemError) -> Notice? {
        lastError = error
        guard !isFailing else { return nil }
        isFailing = true
        failingSince = SystemClock.utc()
        episodeCaughtUp = 0
        episodeLost = 0
        return .failed(path: path, error: error, held: heldLines)
    }

    private func recoverIfFailing() -> Notice? {
        guard isFailing else { return nil }
        isFailing = false
        lastError = nil
        failingSince = nil
        return .recovered(path: path, caughtUp: episodeCaughtUp, lost: episodeLost)
    }

    private func holdLines(of bytes: [UInt8]) {
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            hold(Array(bytes[start...index]))
            start = index + 1
        }
    }

    private func hold(_ line: [UInt8]) {
        held.append(line)
        heldBytes += line.count
        while heldLines > Self.holdLimit || (heldBytes > Self.holdByteLimit && heldLines > 1) {
            heldBytes -= held[heldStart].count
            held[heldStart] = []
            heldStart += 1
            linesLost += 1
            episodeLost += 1
        }
        compactHold()
    }

    private func compactHold() {
        if heldStart == held.count {
            held.removeAll(keepingCapacity: true)
            heldStart = 0
        } else if heldStart > 64 && heldStart * 2 > held.count {
            held.removeFirst(heldStart)
            heldStart = 0
        }
    }

    /// Writes held lines oldest first until one fails.
    private func drain() -> Notice? {
        guard fd >= 0 else { return nil }
        if needsTailRepair {
            do {
                _ = try Self.repairTail(fd: fd, path: path)
                needsTailRepair = false
            } catch {
                return fail(error)
            }
        }
        var wrote = false
        while heldStart < held.count {
            if let error = reserve(held[heldStart].count) ?? writeWhole(held[heldStart]) {
                compactHold()
                if wrote && fsyncPolicy == .always { _ = sync() }
                return fail(error)
            }
            heldBytes -= held[heldStart].count
            held[heldStart] = []
            heldStart += 1
            linesWritten += 1
            if isFailing { episodeCaughtUp += 1 }
            wrote = true
            unsynced = true
        }
        compactHold()
        if wrote && fsyncPolicy == .always, let error = sync() { return fail(error) }
        return recoverIfFailing()
    }

    // MARK: - System calls

    /// One line (or batch of whole lines) in one `write(2)` where the kernel allows; on failure after
    /// part of the line went out, the file is cut back to where it began.
    private func writeWhole(_ line: [UInt8]) -> SystemError? {
        writeWhole(line[...])
    }

    private func writeWhole(_ line: ArraySlice<UInt8>) -> SystemError? {
        do {
            try DescriptorIO.writeAll(fd, line)
            writes += 1
            return nil
        } catch {
            if error.written > 0 { rollBack(written: error.written) }
            return SystemError("write \(path)", errno: error.errno)
        }
    }

    /// Before a retry writes a held line: room for its `count` bytes at the
    /// end of the file, or the error its write would meet — the file-size
    /// limit (`EFBIG`, as `ulimit -f` gives), or no room (`ENOSPC`, `EDQUOT`)
    /// once the space is asked for without writing (`fallocate`, keeping the
    /// size). Where the file system cannot reserve, nil: the write goes
    /// ahead and is cut back if it fails part-way, as the first one was.
    /// Only retries pay these calls; the usual path writes straight away.
    private func reserve(_ count: Int) -> SystemError? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let limit = csupport_file_size_limit()
        if limit >= 0 && Int64(info.st_size) + Int64(count) > limit {
            return SystemError("write \(path)", errno: EFBIG)
        }
        guard csupport_file_reserve(fd, Int64(info.st_size), Int64(count)) != 0 else { return nil }
        let error = errno
        return error == ENOSPC || error == EDQUOT ? SystemError("write \(path)", errno: error) : nil
    }

    /// Cuts off the `written` bytes of a line that could not be finished.
    private func rollBack(written: Int) {
        cutBacks += 1
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) >= written,
           (try? retryingEINTR("ftruncate \(path)", { ftruncate(fd, info.st_size - off_t(written)) })) != nil {
            return
        }
        // Could not cut it back now: repair the tail before anything else is written.
        needsTailRepair = true
    }

    private func sync() -> SystemError? {
        do {
            try retryingEINTR("fdatasync \(path)") { fdatasync(fd) }
            unsynced = false
            unsyncedSince = nil
            syncs += 1
            return nil
        } catch {
            return error
        }
    }

    /// Opens the log through `SafeFile` (relative to its directory, never
    /// through a symbolic link, only a regular file of the daemon's own user),
    /// creating it and its directories as needed.
    private static func openLog(_ path: String) throws(SystemError) -> Int32 {
        // O_RDWR rather than O_WRONLY: the torn-tail repair reads the end of
        // the very file it truncates, through the same descriptor.
        let opened = try SafeFile.open(
            path, flags: O_RDWR | O_APPEND, create: true, mode: fileMode, directoryMode: directoryMode)
        return opened.fd
    }

    /// Cuts the file back to just after its last `\n` (or to empty if it has
    /// none) and returns how many bytes went.
    private static func repairTail(fd: Int32, path: String) throws(SystemError) -> Int {
        var info = stat()
        try retryingEINTR("fstat \(path)") { fstat(fd, &info) }
        let size = Int(info.st_size)
        guard size > 0 else { return 0 }
        var keep = 0
        try DescriptorIO.readBackwards(fd, from: size, name: path) { piece, offset in
            guard let newline = piece.lastIndex(of: UInt8(ascii: "\n")) else { return true }
            keep = offset + newline + 1
            return false
        }
        guard keep < size else { return 0 }
        try retryingEINTR("ftruncate \(path)") { ftruncate(fd, off_t(keep)) }
        try retryingEINTR("fdatasync \(path)") { fdatasync(fd) }
        return size - keep
    }
}
