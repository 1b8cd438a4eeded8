#if canImport(Glibc)
import Glibc
#endif
import LocationConfig

/// Replaces a file so that it appears whole or not at all: the bytes go to a
/// temporary file beside it, which `commit()` syncs, renames over the target
/// and makes durable by syncing the directory. Abandoned (never committed),
/// the temporary file is removed and the target is as it was. The state
/// store and `locationctl export -o` both write through it.
///
/// The temporary file is made by `SafeFile.createTemporary`: a name of its
/// own (`.NAME.` and random letters) created with `O_EXCL` and `O_NOFOLLOW`
/// relative to the directory's descriptor, which the rename and the
/// directory sync use too. Nothing planted in the directory is written
/// through or stands in the way; the rename replaces whatever entry has the
/// target's name (a symbolic link there is replaced, not followed).
///
/// Not thread-safe: one owner.
public final class AtomicFileWriter {
    /// The file to write.
    public let path: String
    /// The temporary file being written.
    public let temporaryPath: String
    private let fd: Int32
    private let directory: Int32
    private let temporaryName: String
    private let name: String
    private var committed = false

    /// A writer whose temporary file, and so the file once committed, is
    /// created with `mode` less the umask (default 0666: an ordinary file).
    public init(path: String, mode: mode_t = 0o666) throws(SystemError) {
        self.path = path
        let made = try SafeFile.createTemporary(beside: path, mode: mode)
        fd = made.fd
        directory = made.directory
        temporaryName = made.name
        name = FileSystem.fileName(of: path)
        temporaryPath = DaemonConfig.join(FileSystem.parent(of: path), made.name)
    }

    deinit {
        if !committed {
            close(fd)
            unlinkat(directory, temporaryName, 0)
        }
        close(directory)
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
            unlinkat(directory, temporaryName, 0)
            throw SystemError("close \(temporaryPath)", errno: code)
        }
        do {
            try retryingEINTR("rename \(temporaryPath) to \(path)") {
                renameat(directory, temporaryName, directory, name)
            }
        } catch {
            unlinkat(directory, temporaryName, 0)
            throw error
        }
        do {
            try retryingEINTR("fsync directory \(FileSystem.parent(of: path))") { fsync(directory) }
            return nil
        } catch {
            return error
        }
    }
}
