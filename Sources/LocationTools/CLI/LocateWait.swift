import LocationProtocol

/// What `locationctl locate` says from the client's status while it waits (#39): at once, when
/// no position can come, why and what would change it; on a terminal, what it waits for and
/// how long is left; at the end, the last reason a fix was not delivered.
public enum LocateWait {
    /// Why no position can come to `client` now, with the next step put to the reader, as
    /// lines for stderr; `nil` when one may come (`locating`: a locate of its own is pending,
    /// so a client that is not updating is no obstacle).
    public static func blocker(_ report: StatusReport, client name: String) -> String? {
        guard let client = report.status.clients.first(where: { $0.authorization.client == name }) else { return nil }
        // A reader who may not ask at all hears that from the daemon, saying who may.
        if let reader = report.reader, !reader.permits(.command(.locate(client: name, timeout: nil))) { return nil }
        var lines: [String] = []
        if !client.eligible, client.suggestion.map({ $0 != .start(client: name) }) ?? true {
            lines.append("locationctl: no location can come to \(name): \(reason(client))")
            if let step = client.suggestion { lines.append(NextStepText.line(step, reader: report.reader)) }
        } else if report.status.source == .connecting {
            let source = report.sourceName.map { " (\($0))" } ?? ""
            lines.append("locationctl: no location can come to \(name) now: no receiver is connected\(source)")
            lines.append("→ see why: \(CommandWord.status.commandLine()) (the source line); locate again once it is connected")
        } else {
            return nil
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The line a terminal shows while the locate waits: `locate logger: waiting for a fix
    /// (no fix from the receiver for 3 s), 27 s left`.
    public static func progress(_ client: ClientStatus) -> String {
        let left = client.locateLeft.map { ", \(TextFormat.duration($0.rounded(.up))) left" } ?? ""
        return "locate \(client.authorization.client): waiting for a fix (\(reason(client)))\(left)"
    }

    /// The client's reason without what a pending locate adds in front of it.
    public static func reason(_ client: ClientStatus) -> String {
        let prefix = ClientStatus.locatingPrefix
        return client.reason.hasPrefix(prefix) ? String(client.reason.dropFirst(prefix.count)) : client.reason
    }
}
