#if canImport(Glibc)
import Glibc
#endif
import LocationSystem

/// Why the control server could not start: each with the path and what to do.
public enum ControlServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path does not fit in a Unix socket address.
    case pathTooLong(String)
    /// Something that is not a socket is at the path; it is left alone.
    case notASocket(String)
    /// A daemon answers on the socket already.
    case alreadyRunning(String)
    /// A system call failed while setting the socket up.
    case system(path: String, SystemError)

    /// A sentence saying what is wrong and what to do.
    public var description: String {
        switch self {
        case .pathTooLong(let path):
            return "control socket path \(path) is longer than \(UnixSocketAddress.maximumPathLength) bytes, "
                + "the most a Unix socket address holds; set a shorter socket in [daemon] of locationd.conf"
        case .notASocket(let path):
            return "\(path) exists and is not a socket; locationd will not delete it: remove or move it, "
                + "or set another socket in [daemon] of locationd.conf"
        case .alreadyRunning(let path):
            return "another locationd is running on \(path) (it answers there); stop it first "
                + "(systemctl stop locationd), or give this one another socket"
        case .system(let path, let error):
            var text = "cannot set up the control socket \(path): \(error)"
            if error.errno == EACCES || error.errno == EPERM {
                text += "; check that locationd may write to \(FileSystem.parent(of: path)) (RuntimeDirectory= in the unit)"
            } else if error.errno == EADDRINUSE || error.errno == EEXIST {
                text += "; something else holds that address"
            }
            return text
        }
    }
}

extension ControlServerError {
    /// The control socket's error for a listener that could not be set up at `path`.
    init(_ failure: UnixListener.Failure, path: String) {
        switch failure {
        case .pathTooLong: self = .pathTooLong(path)
        case .notASocket: self = .notASocket(path)
        case .alreadyServed: self = .alreadyRunning(path)
        case .system(let error): self = .system(path: path, error)
        }
    }
}
