#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import Synchronization

/// A listening Unix stream socket at a path: the control socket and the
/// programs' sockets are set up and taken down the same way.
///
/// Setting up creates the socket's directory, replaces a socket left by a
/// server that is gone (refuses when one answers, and never deletes anything
/// that is not a socket), binds under a name of its own beside the path,
/// gives the file `mode` and the group, listens and links it into place,
/// so the socket is never at its path with another mode. `close()` removes the file only while it is still the one this
/// listener made.
struct UnixListener: Sendable {
    /// Why a socket could not be set up.
    enum Failure: Error, Sendable, Hashable {
        /// The path does not fit in a Unix socket address.
        case pathTooLong
        /// Something that is not a socket is at the path; it is left alone.
        case notASocket
        /// A server answers on the socket already.
        case alreadyServed
        /// A system call failed.
        case system(SystemError)
    }

    /// The socket's path.
    let path: String
    /// The listening descriptor (non-blocking, close-on-exec).
    let fd: Int32
    /// Things a person should know (the group could not be given to the file).
    let warnings: [String]
    /// The file this listener made; `nil` for a socket systemd passed (never removed).
    private let identity: (device: UInt64, inode: UInt64)?

    /// Serves `passed`, the listening socket systemd handed over, as it is:
    /// systemd made the file, its mode and group, and removes it.
    init(passed: PassedSocket) {
        path = passed.path
        fd = passed.descriptor
        warnings = []
        identity = nil
    }

    /// Binds and listens at `path` (see the type), giving the file to
    /// `group` when there is one; `role` names the socket in messages
    /// (`control socket`, `gpsd socket`), written to `journal`.
    init(
        path: String, role: String, mode: mode_t, group: SocketGroup?, directoryMode: mode_t, journal: Diagnostics.Subsystem
    ) throws(Failure) {
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong }
        self.path = path
        do {
            try FileSystem.makeDirectories(FileSystem.parent(of: path), mode: directoryMode)
        } catch {
            throw .system(error)
        }
        try Self.clearStaleSocket(address, role: role, journal: journal)
        let fd: Int32
        do {
            fd = try UnixSocketAddress.makeSocket(nonBlocking: true)
        } catch {
            throw .system(error)
        }
        var warnings: [String] = []
        var info = stat()
        // Bound under a name of its own in the same directory and linked into place once its
        // mode and group are set, so the socket never stands at `path` with the mode the umask
        // gave it (anyone could connect in that moment under a permissive umask).
        let staging = Self.stagingPath(for: path)
        let bound = staging?.path ?? path
        var madeFile = false
        do {
            try retryingEINTR("bind \(path)") {
                (staging?.address ?? address).withSockaddr { bind(fd, $0, $1) }
            }
            madeFile = true
            try retryingEINTR("stat \(path)") { lstat(bound, &info) }
            if let group, chown(bound, uid_t.max, group.gid) != 0 {
                let code = errno
                warnings.append(
                    "cannot give \(path) to group \(group.name) (\(String(cString: strerror(code)))): its members cannot "
                        + "connect; run locationd as root or as a member of \(group.name)")
            }
            try retryingEINTR("chmod \(path)") { chmod(bound, mode) }
            try retryingEINTR("listen \(path)") { listen(fd, 128) }
            if let staging {
                // A second name, then the staging one removed: link(2) fails on an existing path
                // as bind(2) would, so a server that started meanwhile keeps its socket.
                try retryingEINTR("bind \(path)") { link(staging.path, path) }
                unlink(staging.path)
            }
        } catch {
            Glibc.close(fd)
            if madeFile { unlink(bound) }
            throw .system(error)
        }
        self.fd = fd
        self.warnings = warnings
        identity = (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Numbers the staging names, so two listeners set up at once in one directory (the
    /// control socket and a program socket, on different threads) never share one.
    private static let stagings = Atomic<Int>(0)

    /// `.<pid>.<n>.new` beside `path`, where the socket is set up before it is linked into
    /// place. A socket left there by an earlier start that died in between (the same pid
    /// after a reboot) is removed. `nil` — bind at `path` itself — when that name does not
    /// fit in a socket address, is `path` itself, or something that is not a socket is there
    /// (it is left alone).
    static func stagingPath(for path: String) -> (path: String, address: UnixSocketAddress)? {
        stagingPath(for: path, number: stagings.add(1, ordering: .relaxed).newValue)
    }

    /// `stagingPath(for:)` with the number given.
    static func stagingPath(for path: String, number: Int) -> (path: String, address: UnixSocketAddress)? {
        let staging = FileSystem.parent(of: path) + "/.\(getpid()).\(number).new"
        guard staging != path, let address = UnixSocketAddress(path: staging) else { return nil }
        var info = stat()
        if lstat(staging, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK, unlink(staging) == 0 else { return nil }
        }
        return (staging, address)
    }

    /// Closes the descriptor and removes the file if it is still this listener's.
    func close() {
        Glibc.close(fd)
        var info = stat()
        if let identity, lstat(path, &info) == 0, UInt64(info.st_dev) == identity.device,
            UInt64(info.st_ino) == identity.inode
        {
            unlink(path)
        }
    }

    /// Removes a socket left at `address` by a server that is gone.
    private static func clearStaleSocket(_ address: UnixSocketAddress, role: String, journal: Diagnostics.Subsystem) throws(Failure) {
        let path = address.path
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw .system(SystemError("stat \(path)", errno: code))
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket }
        let occupant: UnixSocketAddress.Occupant
        do {
            occupant = try address.probe()
        } catch {
            throw .system(error)
        }
        switch occupant {
        case .server:
            throw .alreadyServed
        case .nobody:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .system(SystemError("remove the stale socket \(path)", errno: errno))
            }
            journal.notice("removed \(path), a \(role) left by a locationd that is no longer running")
        case .unknown(let code):
            throw .system(SystemError("connect to the existing \(path)", errno: code))
        }
    }
}
