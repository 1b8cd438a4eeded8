#if canImport(Glibc)
import Glibc
#endif
import LocationConfig

/// Reads a configuration file and its drop-ins and parses them
/// (`DaemonConfig.parse`), turning every way the read can fail into a
/// `ConfigError` a person can act on.
///
/// Drop-ins: every `*.conf` in `PATH.d` (`/etc/locationd/locationd.conf.d`
/// for the default path), in byte order of their names, after the main
/// file; a key a later file sets overrides (`ConfigFragments`). Names not
/// ending in `.conf` (an editor's backup, a `.dpkg-old`) are left alone; a
/// missing directory is no drop-ins.
public enum ConfigLoader {
    /// A configuration larger than this is refused (it is surely the wrong file).
    public static let maximumSize = 1 << 20

    /// The systemd variables that supply default paths.
    public static let environmentNames = ["STATE_DIRECTORY", "LOGS_DIRECTORY", "RUNTIME_DIRECTORY"]

    /// Reads and parses the file at `path`. Throws every problem found; a file
    /// that cannot be read gives one `.unreadable` error saying why and what to do.
    public static func load(
        path: String, environment: [String: String] = ConfigLoader.processEnvironment()
    ) throws(ConfigErrors) -> DaemonConfig {
        var files = [ConfigFragments.File(path: path, text: try readText(path: path))]
        var problems: [ConfigError] = []
        for dropIn in try dropIns(of: path) {
            do {
                files.append(ConfigFragments.File(path: dropIn, text: try readText(path: dropIn)))
            } catch {
                problems += error.errors
            }
        }
        guard problems.isEmpty else { throw ConfigErrors(problems) }
        return try DaemonConfig.parse(ConfigFragments(files), environment: environment)
    }

    /// The drop-in directory of the configuration at `path`: `PATH.d`.
    public static func dropInDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return trimmed + ".d"
    }

    /// The drop-ins of the configuration at `path`, in the order they apply.
    public static func dropIns(of path: String) throws(ConfigErrors) -> [String] {
        let directory = dropInDirectory(of: path)
        let names: [String]?
        do {
            names = try FileSystem.names(in: directory)
        } catch {
            throw ConfigErrors([.unreadable(
                file: directory, line: nil,
                detail: "cannot read the drop-in directory: \(String(cString: strerror(error.errno)))\(advice(for: error.errno))")])
        }
        return (names ?? []).filter { $0.hasSuffix(".conf") && !$0.hasPrefix(".") }.map { DaemonConfig.join(directory, $0) }
    }

    /// The systemd directory variables of this process that are set.
    public static func processEnvironment() -> [String: String] {
        ProcessEnvironment.values(of: environmentNames)
    }

    /// The file's text, checked to be a readable regular file of valid UTF-8.
    public static func readText(path: String) throws(ConfigErrors) -> String {
        func fail(_ detail: String, line: Int? = nil) -> ConfigErrors {
            ConfigErrors([.unreadable(file: path, line: line, detail: detail)])
        }
        let fd: Int32
        do {
            fd = try retryingEINTR("open \(path)") { open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        } catch {
            throw fail("cannot read the configuration: \(String(cString: strerror(error.errno)))\(advice(for: error.errno))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw fail("cannot read the configuration: \(String(cString: strerror(errno)))")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw fail("is a directory, not a configuration file: name the file itself, e.g. \(DaemonConfig.join(path, "locationd.conf"))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw fail("is not a regular file: name a configuration file (locationd.conf(5))")
        }
        let read: [UInt8]?
        do {
            read = try DescriptorIO.readAll(fd, limit: maximumSize, name: path)
        } catch {
            throw fail("cannot read the configuration: \(String(cString: strerror(error.errno)))")
        }
        guard let bytes = read else {
            throw fail("is larger than \(maximumSize / 1024) KiB, so it cannot be a locationd configuration: check the path")
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var line = 1
        for piece in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if String(validating: piece, as: UTF8.self) == nil { break }
            line += 1
        }
        throw fail("is not valid UTF-8 text: save the file as UTF-8", line: line)
    }

    private static func advice(for code: Int32) -> String {
        switch code {
        case ENOENT: "; create it (locationd.conf(5) describes the format) or pass --config PATH"
        case EACCES, EPERM: "; make it readable by the user locationd runs as"
        case ENOTDIR: "; a directory on the path is a file: check the path"
        default: ""
        }
    }
}
