#if canImport(Glibc)
import Glibc
#endif

/// The few file-system steps the log writer and the state store share.
public enum FileSystem {
    /// The directory part of `path` (`/a/b` → `/a`, `b` → `.`, `/b` → `/`).
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// The last component of `path`.
    public static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Creates `path` and any missing parents with `mode` (less the umask);
    /// an existing directory is fine. Returns whether anything was created.
    @discardableResult
    public static func makeDirectories(_ path: String, mode: mode_t) throws(SystemError) -> Bool {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemError("create directory \(path)", errno: ENOTDIR) }
            return false
        }
        let up = parent(of: path)
        if up != path && up != "." { try makeDirectories(up, mode: mode) }
        do {
            try retryingEINTR("create directory \(path)") { mkdir(path, mode) }
        } catch where error.errno == EEXIST {
            return false
        }
        return true
    }

    /// `fsync` on a directory, so a file created, renamed or removed in it survives a power cut.
    public static func syncDirectory(_ path: String) throws(SystemError) {
        let fd = try retryingEINTR("open directory \(path)") { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(fd) }
        try retryingEINTR("fsync directory \(path)") { fsync(fd) }
    }
}
