#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import LocationSystem
import Synchronization

/// Diagnostics on stderr, each line prefixed with its syslog priority (`<3>`)
/// so that journald files it by level (sd-daemon(3)). One `write(2)` per line,
/// so lines from different threads never interleave.
public enum Diagnostics {
    /// syslog priorities, as `<N>` prefixes.
    public enum Level: Int32, Sendable, Comparable {
        /// `LOG_ERR`: something failed and needs a person.
        case error = 3
        /// `LOG_WARNING`: something is wrong but the daemon carries on.
        case warning = 4
        /// `LOG_NOTICE`: normal but significant (start, stop, reconnect).
        case notice = 5
        /// `LOG_INFO`: routine.
        case info = 6
        /// `LOG_DEBUG`: for developers.
        case debug = 7

        /// Orders by importance: `.error < .debug`.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private static let threshold = Atomic<Int32>(Level.info.rawValue)
    private static let prefixes = Atomic<Bool>(true)

    /// Lines above this level (less important) are dropped. Default `.info`.
    public static var level: Level {
        get { Level(rawValue: threshold.load(ordering: .relaxed)) ?? .info }
        set { threshold.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// Whether to write `<N>` prefixes (on for the daemon; off for people at a terminal).
    public static var priorityPrefixes: Bool {
        get { prefixes.load(ordering: .relaxed) }
        set { prefixes.store(newValue, ordering: .relaxed) }
    }

    /// Whether a line at `level` would be written now.
    private static func isEnabled(_ level: Level) -> Bool { level.rawValue <= threshold.load(ordering: .relaxed) }

    /// Writes one line at `level`. The message is built only when the line is
    /// written: a debug line costs nothing below the threshold.
    public static func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else { return }
        var line = priorityPrefixes ? "<\(level.rawValue)>" : ""
        // One line per entry: a multi-line message would lose its level after the first line.
        // Call sites escape the strings a peer chose (`PeerText`); whatever control character
        // still reaches here is shown as `\xNN`, never written raw to the journal.
        for scalar in PeerText.printable(message()).unicodeScalars {
            line.unicodeScalars.append(scalar == "\n" ? " " : scalar)
        }
        line += "\n"
        // Nowhere to report a failure to write the diagnostics themselves.
        try? DescriptorIO.writeAll(2, Array(line.utf8))
    }

    /// `<3>` — something failed.
    public static func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    /// `<4>` — something is wrong; carrying on.
    public static func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// `<5>` — significant.
    public static func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// `<6>` — routine.
    public static func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// `<7>` — for developers.
    public static func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
