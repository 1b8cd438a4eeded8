#if canImport(Glibc)
import Glibc
#endif
import LocationSystem

/// What a process's own root says of the sandbox it runs in.
enum Sandbox: Sendable, Hashable, CustomStringConvertible {
    /// Its root holds no `/.flatpak-info`: a host process, not in a Flatpak sandbox.
    case host
    /// A Flatpak sandbox of the app with this id (`[Application] name=`).
    case flatpak(String)
    /// Its root holds a `/.flatpak-info` that names no app locationd can take (why): a sandbox
    /// whose app cannot be told. Its peer is refused where the app id matters.
    case unidentified(String)

    var description: String {
        switch self {
        case .host: "no sandbox"
        case .flatpak(let id): "the Flatpak app \(id)"
        case .unidentified(let why): "a sandbox whose app cannot be told (\(why))"
        }
    }
}

/// A Flatpak instance's metadata, as xdg-desktop-portal reads it: Flatpak
/// writes it outside the sandbox and mounts it read-only at `/.flatpak-info`
/// in the sandbox's root, so an app can neither write nor replace it, and
/// the app id is its `[Application] name=`. Read through the process's own
/// root (`/proc/PID/root`, opened while the process was pinned:
/// `PeerProcess.facts`), never from a cgroup or scope name, which a user
/// names as they like. The file is bounded (`maximumSize`), must be a
/// regular file (no link followed, no FIFO waited on), and the id must be a
/// Flatpak app id (`isAppId`).
enum FlatpakInfo {
    /// The largest `.flatpak-info` read (a real one is a few kilobytes).
    static let maximumSize = 64 << 10

    /// What the root directory at `path` says (tests point it at a scratch
    /// directory); `nil` when the directory cannot be opened.
    static func read(root path: String) -> Sandbox? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return read(rootDirectory: fd)
    }

    /// What the root directory open at `fd` says.
    static func read(rootDirectory fd: Int32) -> Sandbox {
        // No link followed (one would resolve against locationd's own root), no FIFO waited on.
        let info = openat(fd, ".flatpak-info", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK)
        guard info >= 0 else {
            switch errno {
            case ENOENT: return .host
            case ELOOP: return .unidentified("/.flatpak-info is a symbolic link")
            default: return .unidentified("/.flatpak-info cannot be opened: \(String(cString: strerror(errno)))")
            }
        }
        defer { close(info) }
        var status = stat()
        guard fstat(info, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .unidentified("/.flatpak-info is not a regular file")
        }
        guard status.st_size <= maximumSize,
            let bytes = try? DescriptorIO.readAll(info, limit: maximumSize, name: "/.flatpak-info")
        else {
            return .unidentified("/.flatpak-info is larger than \(maximumSize) bytes")
        }
        switch appId(in: String(decoding: bytes, as: UTF8.self)) {
        case .success(let id): return .flatpak(id)
        case .failure(let why): return .unidentified(why.description)
        }
    }

    /// Why a `.flatpak-info` names no app.
    struct Unnamed: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The app id of a `.flatpak-info` (a GLib key file): its `[Application]` group's `name`, once,
    /// and a Flatpak app id.
    static func appId(in text: String) -> Result<String, Unnamed> {
        let notKeyFile = Unnamed(description: "/.flatpak-info is not a key file")
        var group: Substring?
        var names: [Substring] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count >= 2 else { return .failure(notKeyFile) }
                group = line.dropFirst().dropLast()
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { return .failure(notKeyFile) }
            var key = line[..<equals]
            while key.last == " " || key.last == "\t" { key = key.dropLast() }
            if group == "Application" && key == "name" {
                names.append(line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" })
            }
        }
        guard let name = names.first else {
            return .failure(Unnamed(description: "/.flatpak-info names no app ([Application] name=)"))
        }
        guard names.count == 1 else {
            return .failure(Unnamed(description: "/.flatpak-info names more than one app"))
        }
        guard isAppId(name) else {
            return .failure(Unnamed(description: "/.flatpak-info's app id is not a Flatpak app id"))
        }
        return .success(String(name))
    }

    /// Flatpak's rule for an app id (`flatpak_is_valid_name`), a reverse-DNS desktop-file id: at
    /// most 255 bytes, at least three elements separated by `.`, each not empty, made of ASCII
    /// letters, digits and `_`, not starting with a digit; `-` in the last element only.
    static func isAppId(_ id: Substring) -> Bool {
        guard id.utf8.count <= 255 else { return false }
        let elements = id.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 3 else { return false }
        for (index, element) in elements.enumerated() {
            let last = index == elements.count - 1
            guard let first = element.first, !isDigit(first) else { return false }
            for byte in element {
                let allowed = isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || (last && byte == UInt8(ascii: "-"))
                guard allowed else { return false }
            }
        }
        return true
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
