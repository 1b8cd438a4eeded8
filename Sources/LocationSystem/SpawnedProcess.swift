#if canImport(Glibc)
import Glibc
#endif
import CSupport

/// A program run on the user's behalf (`locationctl session CLIENT -- COMMAND…`): started
/// with `posix_spawnp` (PATH searched; the caller's standard streams, environment and
/// signal mask), with a pidfd that becomes readable when it ends, so the caller can wait
/// for it in `poll(2)` beside a socket.
public final class SpawnedProcess {
    /// Its process id.
    public let pid: pid_t
    /// Readable once it has ended (`pidfd_open`).
    public let pidfd: Int32

    /// Starts `arguments[0]` (looked up in PATH) with the rest as its arguments.
    public init(arguments: [String]) throws(SystemError) {
        precondition(!arguments.isEmpty, "SpawnedProcess needs a program")
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // Every signal at its default in the child, whatever the caller ignores or catches.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let code = posix_spawnp(&child, arguments[0], nil, &attributes, &argv, environ)
        guard code == 0 else { throw SystemError("run \(arguments[0])", errno: code) }
        pid = child
        let fd = csupport_pidfd_open(child)
        guard fd >= 0 else {
            let e = errno
            // Without a pidfd the caller cannot wait beside its socket: end the child, reap it.
            kill(child, SIGTERM)
            var status: Int32 = 0
            _ = waitpid(child, &status, 0)
            throw SystemError("pidfd_open \(child)", errno: e)
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        pidfd = fd
    }

    deinit { close(pidfd) }

    /// Waits for it to end; its exit status, or 128 + the signal that ended it (as a shell says).
    public func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return 127 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
