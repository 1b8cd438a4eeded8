#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationValues
import LocationSystem

/// The daemon's saved state (`state_dir/state.json`, docs/design.md §9): loaded once at
/// start, saved atomically after changes. It deals in bytes; the caller
/// encodes and decodes them (and calls `setAside(reason:)` when decoding fails).
///
/// Save (an `AtomicFileWriter`): write a temporary file of a name of its own
/// beside it (`.state.json.XXXXXXXXXXXX`, created 0640 with `O_EXCL`, never
/// through a symbolic link), fsync it, rename it over `state.json`, fsync the
/// directory. A failure before the rename leaves the
/// previous `state.json` as it was and removes the temporary file; a failed
/// directory sync fails the save too (a power cut could still undo it).
///
/// Load: the file is opened through `SafeFile` (never through a symbolic
/// link; a regular file of the daemon's own user). A state file that cannot
/// be used (empty, a directory, a link, someone else's, unreadable, absurdly
/// large, or refused by the caller's decoder) is renamed aside to
/// `state.json.corrupt-<UTC time>` so a person can look at it, and the daemon
/// starts from the configuration's initial values.
public struct StateStore: Sendable, Hashable {
    /// What `load()` found.
    public enum Loaded: Sendable, Hashable {
        /// No state file: the very first start.
        case missing
        /// The file's bytes, for the caller to decode.
        case bytes([UInt8])
        /// The file could not be used and was set aside (or could not be: see `SetAside`).
        case setAside(SetAside)
    }

    /// A state file that was set aside: where it was, where it went and why.
    public struct SetAside: Sendable, Hashable, CustomStringConvertible {
        /// The state file's path.
        public var path: String
        /// Where it was moved, or `nil` if the rename failed.
        public var movedTo: String?
        /// Why it could not be used.
        public var reason: String
        /// Why it could not be moved, when it could not.
        public var renameError: SystemError?

        /// The priority to log it at: a warning when the file was moved aside, an error when it could not be.
        public var level: Diagnostics.Level { movedTo == nil ? .error : .warning }

        /// One sentence for the diagnostics.
        public var description: String {
            let outcome = movedTo.map { "moved it to \($0)" }
                ?? "could not move it aside (\(renameError?.description ?? "unknown error")); remove it by hand"
            return "state file \(path) cannot be used (\(reason)); \(outcome); starting from the configuration's initial values"
        }
    }

    /// A state file larger than this is not ours.
    public static let maximumSize = 16 << 20
    /// Mode of the state file (less the umask).
    public static let fileMode: mode_t = 0o640
    /// Mode of a state directory the store has to create (less the umask).
    public static let directoryMode: mode_t = 0o750

    /// The state file.
    public let path: String

    /// The store for `directory/state.json`.
    public init(directory: String) {
        self.path = DaemonConfig.join(directory, DaemonConfig.stateFileName)
    }

    /// The store for a state file at any path (replay's `--state FILE`).
    public init(path: String) {
        self.path = path
    }

    /// The directory holding the state file.
    public var directory: String { FileSystem.parent(of: path) }

    /// Reads the state file. `now` (UTC seconds, default the system clock)
    /// names a file that has to be set aside.
    public func load(now: Double? = nil) -> Loaded {
        let fd: Int32
        do {
            fd = try SafeFile.open(path, flags: O_RDONLY, create: false).fd
        } catch {
            if error.errno == ENOENT { return .missing }
            let reason = error.explanation ?? "cannot open it: \(String(cString: strerror(error.errno)))"
            return .setAside(setAside(reason: reason, now: now))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            return .setAside(setAside(reason: "cannot examine it: \(String(cString: strerror(code)))", now: now))
        }
        guard Int(info.st_size) <= Self.maximumSize else {
            close(fd)
            return .setAside(setAside(reason: "it is larger than \(Self.maximumSize >> 20) MiB", now: now))
        }
        // Read to the end rather than trusting st_size, but never more than the limit.
        let read: [UInt8]?
        do {
            read = try DescriptorIO.readAll(fd, limit: Self.maximumSize, name: path)
        } catch {
            close(fd)
            return .setAside(setAside(reason: "cannot read it: \(String(cString: strerror(error.errno)))", now: now))
        }
        close(fd)
        guard let bytes = read else {
            return .setAside(setAside(reason: "it is larger than \(Self.maximumSize >> 20) MiB", now: now))
        }
        guard !bytes.isEmpty else {
            return .setAside(setAside(reason: "it is empty", now: now))
        }
        return .bytes(bytes)
    }

    /// Renames the state file aside to `state.json.corrupt-<UTC time>`
    /// (with `-2`, `-3`… if that name is taken) and syncs the directory. The
    /// caller calls this when the bytes from `load()` do not decode, with the
    /// decoder's message as `reason`.
    @discardableResult
    public func setAside(reason: String, now: Double? = nil) -> SetAside {
        let stamp = Self.timestamp(now ?? SystemClock.utc())
        var target = "\(path).corrupt-\(stamp)"
        var suffix = 2
        var info = stat()
        while lstat(target, &info) == 0 && suffix < 1000 {
            target = "\(path).corrupt-\(stamp)-\(suffix)"
            suffix += 1
        }
        do {
            try retryingEINTR("rename \(path) to \(target)") { rename(path, target) }
        } catch {
            return SetAside(path: path, movedTo: nil, reason: reason, renameError: error)
        }
        try? FileSystem.syncDirectory(directory)
        return SetAside(path: path, movedTo: target, reason: reason, renameError: nil)
    }

    /// Replaces the state file with `bytes` atomically and durably. On a
    /// thrown error the previous state file is untouched.
    public func save(_ bytes: [UInt8]) throws(SystemError) {
        try FileSystem.makeDirectories(directory, mode: Self.directoryMode)
        let file = try AtomicFileWriter(path: path, mode: Self.fileMode)
        try file.write(bytes)
        // A state whose new name a power cut could still undo is not saved yet: the keeper tries again.
        if let error = try file.commit() { throw error }
    }

    /// Whether a save could be written now, without touching the state file: makes the
    /// directory if needed and creates (then removes) a temporary file beside the state file.
    public func probe() throws(SystemError) {
        try FileSystem.makeDirectories(directory, mode: Self.directoryMode)
        // Never committed: its deinit removes the temporary file.
        _ = try AtomicFileWriter(path: path, mode: Self.fileMode)
    }

    /// `20260314T235001Z`: a timestamp that sorts and needs no quoting.
    static func timestamp(_ seconds: Double) -> String {
        // The whole second it is in (not the nearest), as ISO 8601 text without its separators.
        UTCTime.format(seconds.rounded(.down), fractionDigits: 0).filter { $0 != "-" && $0 != ":" }
    }
}
