#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that it appears whole or not at all: the bytes go to a
/// temporary file beside it, which is synced and renamed over the target
/// when `commit` is called. Abandoned (never committed), the temporary file
/// is removed.
public final class AtomicFileWriter {
    /// The file to write.
    public let path: String
    /// The temporary file being written.
    public let temporaryPath: String
    private var fd: Int32
    private var committed = false

    /// Creates the temporary file in the target's directory.
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
        // mkstemp makes it 0600; an export is an ordinary file (0666 less the umask).
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
    }

    deinit {
        if !committed {
            close(fd)
            unlink(temporaryPath)
        }
    }

    /// Appends bytes.
    public func write(_ bytes: some Collection<UInt8>) throws(SystemError) {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let fd = self.fd
            let start = offset
            let n = try retryingEINTR("write \(temporaryPath)") {
                array.withUnsafeBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return 0 }
                    return Glibc.write(fd, base + start, raw.count - start)
                }
            }
            offset += n
        }
    }

    /// Syncs the temporary file, renames it over the target and syncs the directory.
    public func commit() throws(SystemError) {
        try retryingEINTR("sync \(temporaryPath)") { fsync(fd) }
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
        try? FileSystem.syncDirectory(FileSystem.parent(of: path))
    }
}
