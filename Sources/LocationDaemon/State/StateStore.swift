#if canImport(Glibc)
import Glibc
#endif
import LocationCore

/// The daemon's saved state (`state_dir/state.json`, SPEC §6): loaded once at
/// start, saved atomically after changes. It deals in bytes; the caller
/// encodes and decodes them (and calls `setAside(reason:)` when decoding fails).
///
/// Save: write `state.json.tmp` (created 0640, truncated), fsync it, rename it
/// over `state.json`, fsync the directory. A failure at any step leaves the
/// previous `state.json` as it was and removes the temporary file.
///
/// Load: a state file that cannot be used (empty, a directory, unreadable,
/// absurdly large, or refused by the caller's decoder) is renamed aside to
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
        self.path = directory.hasSuffix("/") ? directory + "state.json" : directory + "/state.json"
    }

    /// The store for a state file at any path (replay's `--state FILE`).
    public init(path: String) {
        self.path = path
    }

    /// The directory holding the state file.
    public var directory: String { FileSystem.parent(of: path) }

    /// The temporary file a save writes before renaming it into place.
    public var temporaryPath: String { path + ".tmp" }

    /// Reads the state file. `now` (UTC seconds, default the system clock)
    /// names a file that has to be set aside.
    public func load(now: Double? = nil) -> Loaded {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return .missing }
            return .setAside(setAside(reason: "cannot open it: \(String(cString: strerror(code)))", now: now))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            return .setAside(setAside(reason: "cannot examine it: \(String(cString: strerror(code)))", now: now))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            return .setAside(setAside(reason: kind == S_IFDIR ? "it is a directory, not a file" : "it is not a regular file", now: now))
        }
        guard Int(info.st_size) <= Self.maximumSize else {
            close(fd)
            return .setAside(setAside(reason: "it is larger than \(Self.maximumSize >> 20) MiB", now: now))
        }
        // Read to the end rather than trusting st_size, but never more than the limit.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= Self.maximumSize {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                let code = errno
                close(fd)
                return .setAside(setAside(reason: "cannot read it: \(String(cString: strerror(code)))", now: now))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        close(fd)
        guard bytes.count <= Self.maximumSize else {
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
        let stamp = Self.timestamp(now ?? Self.wallClock())
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
        let tmp = temporaryPath
        // O_NOFOLLOW: a symlink planted at the temporary name must not redirect the write.
        let fd = try retryingEINTR("create \(tmp)") {
            open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, Self.fileMode)
        }
        do {
            try Self.writeAll(bytes, to: fd, name: tmp)
            try retryingEINTR("fsync \(tmp)") { fsync(fd) }
        } catch {
            close(fd)
            unlink(tmp)
            throw error
        }
        if close(fd) != 0 {
            let code = errno
            unlink(tmp)
            throw SystemError("close \(tmp)", errno: code)
        }
        do {
            try retryingEINTR("rename \(tmp) to \(path)") { rename(tmp, path) }
        } catch {
            unlink(tmp)
            throw error
        }
        try FileSystem.syncDirectory(directory)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, name: String) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if n > 0 {
                offset += n
                continue
            }
            let code = n == 0 ? EIO : errno
            if code == EINTR { continue }
            throw SystemError("write \(name)", errno: code)
        }
    }

    /// `20260314T235001Z`: a timestamp that sorts and needs no quoting.
    static func timestamp(_ seconds: Double) -> String {
        let whole = Int64(seconds.rounded(.down))
        let days = Int(whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400)
        let secOfDay = Int(whole - Int64(days) * 86_400)
        let (year, month, day) = UTCTime.civil(days: days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(year)\(two(month))\(two(day))T\(two(secOfDay / 3600))\(two(secOfDay / 60 % 60))\(two(secOfDay % 60))Z"
    }

    static func wallClock() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
