#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs, for a file system that fills (disk full): the log writer
/// refuses devices such as /dev/full and links to them (#9), so a full file
/// system is how a regular log file fills. Mounting needs root with
/// CAP_SYS_ADMIN, as in CI's container; elsewhere the tests that need it
/// skip (or, in the fault suite, fall back to a file-size limit).
public enum Tmpfs {
    /// Whether this process may mount a tmpfs.
    public static let canMount: Bool = {
        guard let dir = try? ScratchDirectory("mount-probe") else { return false }
        guard Glibc.mount("tmpfs", dir.path, "tmpfs", 0, "size=4k") == 0 else { return false }
        umount2(dir.path, Int32(MNT_DETACH))
        return withExtendedLifetime(dir) { true }
    }()

    /// Mounts a tmpfs of `size` (`"256k"`) at the existing directory `path`; whether it worked.
    public static func mount(_ path: String, size: String) -> Bool {
        Glibc.mount("tmpfs", path, "tmpfs", 0, "size=\(size),mode=0755") == 0
    }

    /// Makes the tmpfs at `path` read-only, or writable again; whether it worked. A read-only
    /// file system refuses even root, so it stands for a state directory the daemon cannot write.
    public static func remount(_ path: String, readOnly: Bool) -> Bool {
        let flags = UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0)
        return Glibc.mount("tmpfs", path, "tmpfs", flags, nil) == 0
    }

    /// Unmounts the tmpfs at `path` (lazily: open files do not stop it).
    public static func unmount(_ path: String) {
        umount2(path, Int32(MNT_DETACH))
    }

    /// Fills every remaining page of the file system at `directory` (up to
    /// `limit` bytes) with the file `name`; the bytes it took.
    @discardableResult
    public static func fill(_ directory: String, name: String = "filler", limit: Int = 512 << 10) -> Int {
        let filler = open(directory + "/" + name, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard filler >= 0 else { return 0 }
        defer { close(filler) }
        let block = [UInt8](repeating: 0x55, count: 4096)
        var written = 0
        while written < limit {
            let n = block.withUnsafeBytes { write(filler, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            written += n
        }
        return written
    }
}
