#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads and writes, directory listings and removal, through the C
/// library: no Foundation, so the pure core's tests can use them too.
public enum FileIO {
    /// `$TMPDIR`, or `/tmp`.
    public static var temporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// The bytes of the file at `path`.
    public static func read(_ path: String) throws(SupportError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .system("open \(path)") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .system("read \(path)") }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    /// The UTF-8 text of the file at `path`, or `nil` if it cannot be read.
    public static func text(_ path: String) -> String? {
        (try? read(path)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes `bytes` to `path`, replacing what was there.
    public static func write(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws(SupportError) {
        try store(path, bytes, flags: O_TRUNC, mode: mode)
    }

    /// Writes UTF-8 `text` to `path`, replacing what was there.
    public static func write(_ path: String, _ text: String) throws(SupportError) {
        try write(path, Array(text.utf8))
    }

    /// Appends `bytes` to `path`, creating it if need be.
    public static func append(_ path: String, _ bytes: [UInt8]) throws(SupportError) {
        try store(path, bytes, flags: O_APPEND, mode: 0o644)
    }

    private static func store(_ path: String, _ bytes: [UInt8], flags: Int32, mode: mode_t) throws(SupportError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, mode)
        guard fd >= 0 else { throw .system("create \(path)") }
        defer { close(fd) }
        try writeAll(fd, bytes, what: path)
    }

    /// Writes all of `bytes` to `fd` (retrying short writes and EINTR).
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], what: String) throws(SupportError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { throw .system("write \(what)") }
            offset += n
        }
    }

    /// Whether anything (a dangling link too) exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` is a file this process may execute.
    public static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// The names in `directory` (without `.` and `..`), sorted.
    public static func list(_ directory: String) throws(SupportError) -> [String] {
        guard let handle = opendir(directory) else { throw .system("open directory \(directory)") }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The names in `directory` ending in `suffix`, sorted; none if it cannot be read.
    public static func files(in directory: String, suffix: String) -> [String] {
        ((try? list(directory)) ?? []).filter { $0.hasSuffix(suffix) }
    }

    /// The number of lines of the file at `path` (a last line without a
    /// newline counts), or `nil` if it cannot be read.
    public static func lineCount(_ path: String) -> Int? {
        guard let bytes = try? read(path) else { return nil }
        return bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } + 1
    }

    /// Makes a new private directory `locationd-LABEL-XXXXXX` in the temporary directory.
    public static func makeTemporaryDirectory(_ label: String) throws(SupportError) -> String {
        var template = Array("\(temporaryDirectory)/locationd-\(label)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else { throw .system("mkdtemp in \(temporaryDirectory)") }
        return String(cString: made)
    }

    /// Removes `path` and, for a directory, everything in it; what cannot be
    /// removed is left.
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            // Tests make read-only directories; the owner may always open them up again.
            chmod(path, 0o700)
            for name in (try? list(path)) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
