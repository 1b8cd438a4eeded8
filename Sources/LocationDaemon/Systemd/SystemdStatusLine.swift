import LocationCore
import LocationProtocol

/// The one line systemd shows as the unit's `STATUS=`: what is being
/// logged and how the source is, e.g. `logging 3D fixes for 1 client; gpsd
/// 127.0.0.1:2947 connected`, led by `STATE NOT SAVED …` while the state cannot be saved.
/// Only counts and states, never a position.
enum SystemdStatusLine {
    /// The line for the engine's `status`, naming the source `sourceName`; a log that cannot be
    /// written is said after it (`logging` would not be true).
    static func text(_ status: EngineStatus, sourceName: String, stateSave: StateSaveStatus? = nil) -> String {
        // A state that cannot be saved comes first: systemctl status may cut the line short.
        let unsaved = stateSave?.ok == false ? "STATE NOT SAVED (decisions are lost on restart; \(CommandWord.status.commandLine())); " : ""
        let failing = status.clients.filter { $0.logWrite?.failing == true }
        guard let first = failing.first, let log = first.logWrite else { return unsaved + line(status, sourceName: sourceName) }
        let others = failing.count > 1 ? " (and \(failing.count - 1) more)" : ""
        let held = "\(log.held) line\(log.held == 1 ? "" : "s") held, \(log.lost) lost"
        return unsaved + line(status, sourceName: sourceName)
            + "; cannot write the log of \(first.authorization.client)\(others): \(held)"
    }

    private static func line(_ status: EngineStatus, sourceName: String) -> String {
        let source: String
        switch status.source {
        case .connecting: source = "waiting for \(sourceName)"
        case .endOfFile: source = "\(sourceName) at end of file, following it"
        case .connected: source = "\(sourceName) connected, no fix yet"
        case .noFix: source = "\(sourceName) connected, receiver has no fix"
        case .fix: source = "\(sourceName) connected"
        }
        let receiving = status.clients.filter(\.eligible)
        let count = receiving.count == 1 ? "1 client" : "\(receiving.count) clients"
        if !status.services { return "Location Services are off; \(source)" }
        if receiving.isEmpty {
            guard let first = status.clients.first else { return "no clients configured; \(source)" }
            let others = status.clients.count > 1 ? " (and \(status.clients.count - 1) more)" : ""
            return "no client receiving fixes: \(first.authorization.client) \(first.reason)\(others); \(source)"
        }
        if status.source == .fix, let mode = status.lastFix?.mode {
            return "logging \(mode) fixes for \(count); \(source)"
        }
        return "\(count) waiting for a fix; \(source)"
    }
}
