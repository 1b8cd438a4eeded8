#if canImport(Glibc)
import Glibc
#endif

/// Where test data lives: the project's own fixtures, and the shared real
/// captures in `../shared` beside the package (absent in a user's clone).
enum TestFixtures {
    /// The package root, from this file's path.
    static let packageRoot: String = {
        var path = #filePath
        // …/Tests/LocationDaemonTests/Support/TestFixtures.swift → package root.
        for _ in 0..<4 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    /// `../shared/fixtures/nmea`, the real captures with gpsd's expectations.
    static let sharedNMEA = packageRoot + "/../shared/fixtures/nmea"

    /// The project's own NMEA fixtures.
    static let projectNMEA = packageRoot + "/fixtures/nmea"

    /// Whether the shared captures are present.
    static var hasSharedNMEA: Bool { access(sharedNMEA + "/README.md", R_OK) == 0 }

    /// Names of files in `directory` ending in `suffix`, sorted.
    static func files(in directory: String, suffix: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(suffix) { names.append(name) }
        }
        return names.sorted()
    }

    /// The text of the file at `path`, or `nil` if it cannot be read.
    static func contents(of path: String) -> String? {
        bytes(of: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of the file at `path`, or `nil` if it cannot be read.
    static func bytes(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            bytes += buffer[..<n]
        }
        return bytes
    }
}
