#if canImport(Glibc)
import Glibc
#endif

/// The signals the daemon acts on.
public enum Signal: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// SIGTERM: stop (systemd's stop).
    case terminate
    /// SIGINT: stop (Ctrl-C at a terminal).
    case interrupt
    /// SIGHUP: reopen logs and reload the configuration.
    case hangup

    /// The signal number.
    public var number: Int32 {
        switch self {
        case .terminate: SIGTERM
        case .interrupt: SIGINT
        case .hangup: SIGHUP
        }
    }

    /// The signal with this number, if the daemon acts on it.
    public init?(number: Int32) {
        guard let match = Signal.allCases.first(where: { $0.number == number }) else { return nil }
        self = match
    }

    /// `SIGTERM`, `SIGINT`, `SIGHUP`.
    public var description: String {
        switch self {
        case .terminate: "SIGTERM"
        case .interrupt: "SIGINT"
        case .hangup: "SIGHUP"
        }
    }
}
