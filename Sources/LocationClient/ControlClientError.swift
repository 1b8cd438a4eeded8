#if canImport(Glibc)
import Glibc
#endif
import LocationProtocol
import LocationValues
import LocationSystem

/// Why `locationctl` could not talk to the daemon: each names the socket and
/// the likely cause, and says what to do. Exit status 3, except a reply that
/// could not be read (1).
public enum ControlClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path does not fit in a Unix socket address.
    case pathTooLong(String)
    /// `connect` failed with this errno.
    case connect(path: String, errno: Int32)
    /// No answer within the deadline.
    case timedOut(path: String, seconds: Double)
    /// The daemon closed the connection before answering.
    case closed(path: String)
    /// Reading or writing the socket failed.
    case io(path: String, SystemError)
    /// The daemon sent a line longer than a client accepts.
    case lineTooLong(path: String, limit: Int)
    /// A line from the daemon that is not a reply or an event.
    case unreadable(ControlDecodeError)

    /// The exit status that goes with it.
    public var exitCode: ExitCode {
        if case .unreadable = self { return .refused }
        return .unreachable
    }

    /// What went wrong, the likely cause, and what to do.
    public var description: String {
        switch self {
        case .pathTooLong(let path):
            return "cannot reach locationd: the socket path \(path) is longer than "
                + "\(UnixSocketAddress.maximumPathLength) bytes, the most a Unix socket address holds"
        case .connect(let path, let code):
            let reason = String(cString: strerror(code))
            switch code {
            case ENOENT, ENOTDIR:
                return "cannot reach locationd at \(path): no such socket (\(reason)). Is the daemon running? "
                    + "Start it with: systemctl start locationd — or, if it listens elsewhere, give the socket "
                    + "with --socket PATH or $\(ControlProtocol.socketEnvironmentVariable)."
            case ECONNREFUSED:
                return "cannot reach locationd at \(path): nothing is listening (\(reason)); the daemon is not running "
                    + "(a stopped daemon may have left its socket behind). Start it with: systemctl start locationd"
            case EACCES, EPERM:
                return "cannot reach locationd at \(path): permission denied. The socket is open to root and members "
                    + "of the daemon's socket group (socket_group in locationd.conf): run with sudo, or ask an "
                    + "administrator to add you to that group (then log in again)."
            case EAGAIN, ETIMEDOUT:
                return "cannot reach locationd at \(path): it did not accept the connection in time (\(reason)); "
                    + "it may be overloaded or stuck — see: systemctl status locationd"
            default:
                return "cannot reach locationd at \(path): \(reason)"
            }
        case .timedOut(let path, let seconds):
            let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "locationd at \(path) did not answer within \(shown) s; it may be overloaded or stuck — "
                + "see: systemctl status locationd"
        case .closed(let path):
            return "locationd at \(path) closed the connection without answering (is it stopping? see: systemctl status locationd)"
        case .io(let path, let error):
            return "cannot talk to locationd at \(path): \(error)"
        case .lineTooLong(let path, let limit):
            return "locationd at \(path) sent a line longer than \(limit) bytes; is locationctl the same version as the daemon?"
        case .unreadable(let error):
            return "\(error); is locationctl the same version as the daemon? (locationctl --version)"
        }
    }
}
