extension Diagnostics {
    /// The part of the daemon a line comes from, named at its start
    /// (`<5>gpsd: connected …`), as swift-log names a logger by its label: a
    /// person reading the journal sees which room spoke without knowing the
    /// message. Call sites write `Diagnostics.gpsd.notice("connected …")`.
    public struct Subsystem: Sendable, Hashable, CustomStringConvertible {
        /// The name at the start of each line.
        public let name: String

        /// A subsystem named `name` (a short lowercase word).
        public init(_ name: String) { self.name = name }

        /// The name.
        public var description: String { name }

        /// Writes one line at `level`, built only when it is written.
        public func log(_ level: Level, _ message: @autoclosure () -> String) {
            // Diagnostics.log takes an autoclosure too: below the threshold, nothing is built.
            Diagnostics.log(level, name + ": " + message())
        }

        /// `<3>` — something failed.
        public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
        /// `<4>` — something is wrong; carrying on.
        public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
        /// `<5>` — significant.
        public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
        /// `<6>` — routine.
        public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
        /// `<7>` — for developers.
        public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    }

    /// Start, stop, reload, the configuration, the service group.
    public static let daemon = Subsystem("daemon")
    /// The fix source as the engine sees it: its state, time jumps, receivers.
    public static let source = Subsystem("source")
    /// The gpsd connection (libgps, the reader thread, reconnects).
    public static let gpsd = Subsystem("gpsd")
    /// An NMEA device, FIFO or file read directly.
    public static let nmea = Subsystem("nmea")
    /// What the engine decided for clients: authorizations, prompts, errors, use.
    public static let clients = Subsystem("clients")
    /// The clients' coordinate logs.
    public static let log = Subsystem("log")
    /// The state file.
    public static let state = Subsystem("state")
    /// The control socket and its peers.
    public static let control = Subsystem("control")
    /// The audit log.
    public static let audit = Subsystem("audit")
    /// The programs' sockets (gpsd protocol, NMEA).
    public static let programs = Subsystem("programs")
    /// MQTT publishing.
    public static let mqtt = Subsystem("mqtt")
    /// The access report.
    public static let report = Subsystem("report")
    /// systemd notifications.
    public static let systemd = Subsystem("systemd")
    /// The GeoClue2-compatible face on D-Bus.
    public static let geoclue = Subsystem("geoclue")
}
