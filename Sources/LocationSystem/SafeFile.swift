#if canImport(Glibc)
import Glibc
#endif

/// The one way the daemon opens a file it writes (client logs, the audit
/// log, the state file and its temporaries, `AtomicFileWriter`), so nothing
/// planted in a log or state directory can redirect a write (#9):
///
/// * the directory is opened first and the file relative to it (`openat`),
///   with `O_NOFOLLOW`: a symbolic link at the file's name is refused, never
///   followed;
/// * an existing file must be a regular file owned by the user the daemon
///   runs as (a hard link to someone else's file, a FIFO, a device are
///   refused), checked on the open descriptor (`fstat`), before a single byte
///   is read, written or cut off;
/// * a new file is created with `O_EXCL`, and a temporary one gets a name of
///   its own (`.NAME.` and random letters), so nothing at a guessable name
///   can be in the way;
/// * `directoryProblem(_:)` says when a directory lets others plant files in
///   it (world-writable, or owned by someone else).
///
/// A refusal is a `SystemError` whose message says what was found and what
/// to do.
public enum SafeFile {
    /// An open file and whether this open created it.
    public struct Opened: Sendable {
        /// The descriptor (close-on-exec, blocking).
        public var fd: Int32
        /// Whether the file was created by this open.
        public var created: Bool
    }

    /// Opens `path` with `flags` (`O_RDONLY`, `O_RDWR | O_APPEND`, …),
    /// creating it with `mode` (less the umask) when `create`. Its directory
    /// is created first with `directoryMode` when given. A newly created
    /// file's directory entry is synced.
    public static func open(
        _ path: String, flags: Int32, create: Bool, mode: mode_t = 0o600, directoryMode: mode_t? = nil
    ) throws(SystemError) -> Opened {
        let directoryPath = FileSystem.parent(of: path)
        if let directoryMode { try FileSystem.makeDirectories(directoryPath, mode: directoryMode) }
        let directory = try openDirectory(directoryPath)
        defer { Glibc.close(directory) }
        let name = FileSystem.fileName(of: path)
        // O_NONBLOCK: a FIFO planted at the name must not hang the open; it is refused just after.
        let base = flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
        var created = false
        var fd: Int32 = -1
        for _ in 0..<8 {
            if create {
                fd = openat(directory, name, base | O_CREAT | O_EXCL, mode)
                if fd >= 0 {
                    created = true
                    break
                }
                if errno == EINTR { continue }
                guard errno == EEXIST else { break }
            }
            fd = openat(directory, name, base)
            if fd >= 0 || errno == EINTR { if fd >= 0 { break } else { continue } }
            // Removed between the two opens: try creating it again.
            guard create && errno == ENOENT else { break }
        }
        guard fd >= 0 else { throw refusal(path, errno: errno) }
        do {
            try check(fd, path: path)
        } catch {
            Glibc.close(fd)
            throw error
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if created { _ = fsync(directory) }
        return Opened(fd: fd, created: created)
    }

    /// Creates a new file beside `path` under a name of its own
    /// (`.NAME.` and 12 random letters), with `O_EXCL` and `mode` (less the
    /// umask). Returns it with its directory's descriptor (for `renameat`
    /// and the directory sync; the caller closes both) and its name.
    public static func createTemporary(beside path: String, mode: mode_t) throws(SystemError)
        -> (fd: Int32, directory: Int32, name: String)
    {
        let directoryPath = FileSystem.parent(of: path)
        let directory = try openDirectory(directoryPath)
        let prefix = "." + FileSystem.fileName(of: path) + "."
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let name = prefix + String((0..<12).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
            let fd = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, mode)
            if fd >= 0 { return (fd, directory, name) }
            let code = errno
            guard code == EEXIST || code == EINTR else {
                Glibc.close(directory)
                throw SystemError("create a temporary file in \(directoryPath)", errno: code)
            }
        }
        Glibc.close(directory)
        throw SystemError("create a temporary file in \(directoryPath) (100 names taken)", errno: EEXIST)
    }

    /// Why `directory` lets others put files in it, or `nil`: writable by
    /// everyone, or owned by neither root nor the user the daemon runs as.
    public static func directoryProblem(_ directory: String) -> String? {
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        let me = geteuid()
        if info.st_mode & S_IWOTH != 0 {
            return "\(directory) is writable by everyone (mode \(String(info.st_mode & 0o7777, radix: 8))): "
                + "anyone can put files or links in it; give it to the user locationd runs as with mode 0750 or 0755"
        }
        if info.st_uid != me && info.st_uid != 0 {
            return "\(directory) is owned by uid \(info.st_uid), not by uid \(me) that locationd runs as: "
                + "its owner can put files or links in it; chown it to uid \(me)"
        }
        return nil
    }

    /// Each distinct directory problem among the directories of `paths`, once.
    public static func directoryProblems(of paths: [String]) -> [String] {
        var seen: Set<String> = []
        var problems: [String] = []
        for path in paths {
            let directory = FileSystem.parent(of: path)
            guard seen.insert(directory).inserted, let problem = directoryProblem(directory) else { continue }
            problems.append(problem)
        }
        return problems
    }

    /// The directory, opened to be the anchor of `openat` (and synced through).
    static func openDirectory(_ path: String) throws(SystemError) -> Int32 {
        try retryingEINTR("open directory \(path)") { Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    }

    /// Refuses anything but a regular file owned by the user the daemon runs as.
    static func check(_ fd: Int32, path: String) throws(SystemError) {
        var info = stat()
        try retryingEINTR("fstat \(path)") { fstat(fd, &info) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw SystemError(
                "refused \(path)", errno: kind == S_IFDIR ? EISDIR : EINVAL,
                explanation: "it is \(kindName(kind)), not a regular file; locationd writes only regular files of its own")
        }
        let me = geteuid()
        guard info.st_uid == me else {
            throw SystemError(
                "refused \(path)", errno: EPERM,
                explanation: "it is owned by uid \(info.st_uid), not by uid \(me) that locationd runs as; "
                    + "locationd writes only its own files (move it away, or chown it to uid \(me))")
        }
    }

    /// The error of a failed `openat`, explained where the cause is ours to name.
    static func refusal(_ path: String, errno code: Int32) -> SystemError {
        if code == ELOOP {
            return SystemError(
                "refused \(path)", errno: ELOOP,
                explanation: "it is a symbolic link, and locationd never writes through one; remove the link")
        }
        return SystemError("open \(path)", errno: code)
    }

    static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }
}
