#if canImport(Glibc)
import Glibc
#endif

extension FileSystem {
    /// The names in directory `path` (without `.` and `..`), in byte order,
    /// so the order is the same in every locale. `nil` when there is no such
    /// directory.
    public static func names(in path: String) throws(SystemError) -> [String]? {
        guard let directory = opendir(path) else {
            let code = errno
            if code == ENOENT { return nil }
            throw SystemError("open directory \(path)", errno: code)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw SystemError("read directory \(path)", errno: errno) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
