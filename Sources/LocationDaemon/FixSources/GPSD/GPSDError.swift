#if canImport(Glibc)
import Glibc
#endif

/// Why a gpsd session could not start or has ended, as a sentence a person
/// can act on.
struct GPSDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    enum Code: Sendable, Hashable {
        /// The host or port cannot be used at all (not a gpsd TCP endpoint).
        case invalidEndpoint
        /// libgps cannot be loaded: the shim's message, naming the package to install.
        case library(String)
        /// Connecting or starting the watch failed; `status` is the shim's
        /// code (negative: libgps NL_* code, positive: errno).
        case connect(status: Int32)
        /// gpsd closed the connection (or sent a line longer than libgps takes).
        case closed
        /// Reading or waiting failed with this errno.
        case io(errno: Int32)
        /// Connected, but nothing answered like gpsd within the handshake time.
        case noAnswer(seconds: Double)
        /// gpsd went silent and did not answer a probe.
        case unresponsive(seconds: Double)
    }

    /// What went wrong.
    var code: Code
    /// `host:port`, for the message.
    var endpoint: String

    /// The message, e.g. `cannot connect to gpsd at 127.0.0.1:2947: can't
    /// connect to host/port pair (is gpsd running and listening there?)`.
    var description: String {
        switch code {
        case .invalidEndpoint:
            return "gpsd endpoint \(endpoint) is not usable: give a host name or address and a port in 1...65535"
        case .library(let message):
            return "cannot connect to gpsd at \(endpoint): \(message)"
        case .connect(let status):
            let text = GPSDSession.describe(status: status)
            return "cannot connect to gpsd at \(endpoint): \(text)\(hint(for: status))"
        case .closed:
            return "gpsd at \(endpoint) closed the connection"
        case .io(let errno):
            return "connection to gpsd at \(endpoint) failed: \(String(cString: strerror(errno)))"
        case .noAnswer(let seconds):
            return "\(endpoint) accepted the connection but did not answer like gpsd within \(text(seconds)) s"
                + " (is something else listening on that port?)"
        case .unresponsive(let seconds):
            return "gpsd at \(endpoint) stopped answering (silent for \(text(seconds)) s, no reply to a probe)"
        }
    }

    /// The summary used to decide whether two failures are "the same outage
    /// reason" (so a retry loop logs it once).
    var reason: String { description }

    private func text(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded() / 10
        return tenths.rounded() == tenths ? "\(Int(tenths))" : "\(tenths)"
    }

    private func hint(for status: Int32) -> String {
        switch status {
        case -6: " (is gpsd running and listening there?)"  // NL_NOCONNECT
        case -2: " (check the host name)"  // NL_NOHOST
        case -1: " (check the port)"  // NL_NOSERVICE
        default: ""
        }
    }
}
