#if canImport(Glibc)
import Glibc
#endif
import LocationSystem

/// Tells systemd how the service is doing (sd_notify(3)'s protocol): one
/// datagram of `KEY=value` lines to the `AF_UNIX` socket named by
/// `$NOTIFY_SOCKET` (a path, or `@name` for the abstract namespace).
/// Without `$NOTIFY_SOCKET` (not started by systemd) every call does nothing.
///
/// The watchdog: when systemd sets `$WATCHDOG_USEC` (and `$WATCHDOG_PID` is
/// unset or this process), `watchdogInterval` is that time and the daemon
/// sends `watchdog()` every `watchdogPingInterval` (half of it).
public struct SystemdNotifier: Sendable, Hashable {
    /// The environment variables the notifier reads.
    public static let environmentNames = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

    /// `$NOTIFY_SOCKET`, or `nil` when not running under systemd's notify protocol.
    public let socketPath: String?
    /// The watchdog timeout in seconds, when systemd asks this process for pings.
    public let watchdogInterval: Double?

    /// A notifier for the given environment (pass `processEnvironment()` in the daemon).
    public init(environment: [String: String], processID: Int32 = getpid()) {
        let socket = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = socket
        var interval: Double?
        if socket != nil, let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 {
            if let pidText = environment["WATCHDOG_PID"], !pidText.isEmpty {
                interval = Int32(pidText) == processID ? Double(usec) / 1e6 : nil
            } else {
                interval = Double(usec) / 1e6
            }
        }
        watchdogInterval = interval
    }

    /// The variables of `environmentNames` that are set in this process.
    public static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in environmentNames {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// Whether notifications go anywhere.
    public var isEnabled: Bool { socketPath != nil }

    /// How often to call `watchdog()`: half the watchdog timeout, as systemd advises.
    public var watchdogPingInterval: Double? { watchdogInterval.map { $0 / 2 } }

    /// `READY=1`, with a `STATUS=` line: start-up is complete.
    public func ready(status: String? = nil) throws(SystemError) {
        try send(["READY=1"] + (status.map { ["STATUS=\(Self.oneLine($0))"] } ?? []))
    }

    /// `STATUS=…`: one line for `systemctl status`.
    public func status(_ text: String) throws(SystemError) {
        try send(["STATUS=\(Self.oneLine(text))"])
    }

    /// `WATCHDOG=1`: still alive.
    public func watchdog() throws(SystemError) {
        try send(["WATCHDOG=1"])
    }

    /// `STOPPING=1`: shutting down.
    public func stopping(status: String? = nil) throws(SystemError) {
        try send(["STOPPING=1"] + (status.map { ["STATUS=\(Self.oneLine($0))"] } ?? []))
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=` (systemd ≥ 253 wants it for
    /// `Type=notify-reload`; older versions ignore it): reloading the
    /// configuration; send `ready()` when done.
    public func reloading(status: String? = nil) throws(SystemError) {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let usec = UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
        try send(["RELOADING=1", "MONOTONIC_USEC=\(usec)"] + (status.map { ["STATUS=\(Self.oneLine($0))"] } ?? []))
    }

    /// Sends `lines` (each `KEY=value`) as one datagram. Does nothing when not enabled.
    public func send(_ lines: [String]) throws(SystemError) {
        guard let socketPath else { return }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        var name = Array(socketPath.utf8)
        let abstract = name.first == UInt8(ascii: "@")
        guard abstract || name.first == UInt8(ascii: "/") else {
            throw SystemError("notify systemd: NOTIFY_SOCKET=\(socketPath) is neither a path nor @name", errno: EAFNOSUPPORT)
        }
        if abstract { name[0] = 0 }
        // A path needs room for its terminating NUL; an abstract name does not have one.
        guard name.count + (abstract ? 0 : 1) <= capacity else {
            throw SystemError("notify systemd: NOTIFY_SOCKET=\(socketPath) is too long", errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: name)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
        let length = socklen_t(pathOffset + name.count + (abstract ? 0 : 1))

        let fd = try retryingEINTR("notify systemd: socket") { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        defer { close(fd) }
        let message = Array(lines.joined(separator: "\n").utf8)
        let sent = try retryingEINTR("notify systemd at \(socketPath)") {
            message.withUnsafeBytes { buffer in
                withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), $0, length)
                    }
                }
            }
        }
        guard sent == message.count else { throw SystemError("notify systemd at \(socketPath): short send", errno: EMSGSIZE) }
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r\n" || $0 == "\r" ? " " : $0 })
    }
}
