#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file so that it appears whole or not at all: the bytes go to a
/// temporary file beside it, which `commit()` syncs, renames over the target
/// and makes durable by syncing the directory. Abandoned (never committed),
/// the temporary file is removed and the target is as it was. The state
/// store and `locationctl export -o` both write through it.
///
/// Not thread-safe: one owner.
public final class AtomicFileWriter {
    /// The file to write.
    public let path: String
    /// The temporary file being written.
    public let temporaryPath: String
    private let fd: Int32
    private var committed = false

    /// A writer whose temporary file gets a name of its own beside the target
    /// (`.NAME.XXXXXX`), and once committed the mode of any new file (0666
    /// less the umask).
    public init(path: String) throws(SystemError) {
        self.path = path
        let directory = FileSystem.parent(of: path)
        var template = Array("\(directory)/.\(FileSystem.fileName(of: path)).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { throw SystemError("create a temporary file in \(directory)", errno: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.fd = fd
        temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // mkstemp makes it 0600; an export is an ordinary file. (Reading the umask sets it for a moment:
        // fine in the single-threaded locationctl.)
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
    }

    /// A writer whose temporary file is `temporaryPath`, created with `mode`
    /// (less the umask), or truncated when an earlier attempt left it. A
    /// symbolic link at that name is refused (`ELOOP`), never followed.
    public init(path: String, temporaryPath: String, mode: mode_t) throws(SystemError) {
        self.path = path
        self.temporaryPath = temporaryPath
        fd = try retryingEINTR("create \(temporaryPath)") {
            open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, mode)
        }
    }

    deinit {
        if !committed {
            close(fd)
            unlink(temporaryPath)
        }
    }

    /// Appends bytes.
    public func write(_ bytes: some Collection<UInt8>) throws(SystemError) {
        do {
            try DescriptorIO.writeAll(fd, Array(bytes))
        } catch {
            throw SystemError("write \(temporaryPath)", errno: error.errno)
        }
    }

    /// Syncs the temporary file, renames it over the target and syncs the
    /// directory. A thrown error leaves the target as it was and removes the
    /// temporary file. When only the directory sync failed, the new file is
    /// in place but its name may not survive a power cut: that error is
    /// returned, for the caller to treat as a failure or not.
    @discardableResult
    public func commit() throws(SystemError) -> SystemError? {
        try retryingEINTR("fsync \(temporaryPath)") { fsync(fd) }
        committed = true
        // close is not retried on EINTR: on Linux the descriptor is gone either way.
        if close(fd) != 0 && errno != EINTR {
            let code = errno
            unlink(temporaryPath)
            throw SystemError("close \(temporaryPath)", errno: code)
        }
        do {
            try retryingEINTR("rename \(temporaryPath) to \(path)") { rename(temporaryPath, path) }
        } catch {
            unlink(temporaryPath)
            throw error
        }
        do {
            try FileSystem.syncDirectory(FileSystem.parent(of: path))
            return nil
        } catch {
            return error
        }
    }
}
