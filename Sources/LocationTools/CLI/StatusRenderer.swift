import LocationProtocol
import LocationValues

/// `locationctl status` for a person: the source, Location Services, and per
/// client whether it gets locations, why not, and the one command that
/// would change that; pending prompts stand out with their answers.
public enum StatusRenderer {
    /// The status as plain text lines (no colours), ending in a newline.
    public static func render(_ report: StatusReport) -> String {
        let status = report.status
        var lines: [String] = []
        // First, above everything: the decisions below would not survive a restart.
        if let line = report.stateSave?.failureLine { lines.append("WARNING: " + line) }
        var source = "\(report.sourceName ?? "source"): \(sourceLine(status))"
        // With several sources each says its own outage below.
        if status.source == .connecting, report.sources.count < 2, let outage = report.sourceOutage { source += "; " + outage.summary }
        lines.append(source)
        lines.append(contentsOf: sourceLines(report))
        if let position = positionLine(status) { lines.append(position) }
        if let sky = skyLine(report) { lines.append(sky) }
        if let clock = receiverClockLine(report) { lines.append(clock) }
        if let jumps = timeJumpLine(report) { lines.append(jumps) }
        lines.append(contentsOf: receiverLines(status))
        let servicesOn = Command.services(on: true)
        let switchOn =
            NextStepText.mayRun(servicesOn, reader: report.reader)
            ? NextStepText.commandLine(servicesOn) : NextStepText.whoMay(servicesOn) + ": " + NextStepText.commandLine(servicesOn)
        lines.append("Location Services: " + (status.services ? "on" : "off — no client gets locations (\(switchOn))"))
        // Each face's own lines (`StatusSectionText`), in the order of the sections.
        let faces = report.sections.texts
        lines.append(contentsOf: faces.flatMap { $0.headLines(report) })
        if status.clients.isEmpty { lines.append("No clients are configured.") }
        for client in status.clients {
            lines.append("")
            lines.append(contentsOf: clientLines(client, now: report.time, reader: report.reader))
            lines.append(contentsOf: faces.flatMap { $0.clientLines(client.authorization.client, in: report) })
        }
        let prompts = status.clients.compactMap(\.prompt)
        if !prompts.isEmpty {
            lines.append("")
            for prompt in prompts { lines.append(contentsOf: promptLines(prompt, reader: report.reader)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `connected, 3D fix 2 s ago, ±4.8 m, 9 satellites` or `not connected (retrying)`.
    public static func sourceLine(_ status: EngineStatus) -> String {
        let last = lastFixText(status)
        switch status.source {
        case .connecting:
            return "not connected (retrying)" + (last.map { "; last fix \($0)" } ?? "")
        case .connected:
            return "connected, waiting for the receiver" + (last.map { "; last fix \($0)" } ?? "")
        case .endOfFile:
            return "at end of file, following it" + (last.map { "; last fix \($0)" } ?? "")
        case .noFix:
            return "connected, the receiver has no fix" + (last.map { "; last fix \($0)" } ?? "")
        case .fix:
            return "connected, " + (last ?? "fix")
        }
    }

    /// `receiver clock: 261 d behind the system clock` when the two differ by more than a minute.
    static func receiverClockLine(_ report: StatusReport) -> String? {
        guard let offset = report.receiverClockOffset, abs(offset) > 60 else { return nil }
        let side = offset < 0 ? "behind" : "ahead of"
        let named = naming(report.status.lastFix?.device, report.status)
        var line = "receiver clock\(named): \(TextFormat.duration(abs(offset))) \(side) the system clock"
        if let time = report.status.lastFix?.time { line += " (its last fix is dated \(TextFormat.dateTime(time)))" }
        return line
    }

    /// `receiver time: went back 52 min (to …) 3 min ago; a new time base, logging continues (2 jumps since start)`.
    static func timeJumpLine(_ report: StatusReport) -> String? {
        let status = report.status
        guard status.timeJumps > 0, let jump = status.lastTimeJump else { return nil }
        let ago = status.lastTimeJumpAge.map { " \(TextFormat.duration($0)) ago" } ?? ""
        let count = status.timeJumps == 1 ? "1 jump" : "\(status.timeJumps) jumps"
        return "receiver time: went back \(jump.size) (to \(TextFormat.dateTime(jump.to)))\(ago); a new time base, logging continues (\(count) since the daemon started)"
    }

    private static func lastFixText(_ status: EngineStatus) -> String? {
        guard let fix = status.lastFix else { return nil }
        var parts = ["\(fix.mode) fix" + naming(fix.device, status) + (status.lastFixAge.map { " \(TextFormat.duration($0)) ago" } ?? "")]
        if let error = fix.horizontalError, error.isFinite {
            parts.append(TextFormat.error(error))
        } else {
            parts.append("accuracy unknown")
        }
        if let sats = fix.satellitesUsed { parts.append("\(sats) satellite\(sats == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }

    /// The lines of one client.
    /// `reader` (who the daemon wrote the status for) decides whether the next step is put as a
    /// command to run or as one to ask the operator (or the client's app) for.
    public static func clientLines(_ client: ClientStatus, now: Double?, reader: ControlRole? = nil) -> [String] {
        let a = client.authorization
        var lines = ["\(a.client): \(TextFormat.authorization(a))"]
        var activity = [client.inUse ? "in use" : "not in use", client.updating ? "updating" : "not updating"]
        if client.locatePending { activity.append("locate pending") }
        lines.append("  " + activity.joined(separator: ", "))
        var delivering = client.delivering ? "  getting locations: yes" : "  getting locations: NO"
        if !client.reason.isEmpty { delivering += " — " + client.reason }
        lines.append(delivering)
        if let failure = client.logWrite?.failureLine { lines.append("  log: " + failure) }
        if !client.rawLogs.isEmpty { lines.append("  raw capture: " + client.rawLogs.joined(separator: ", ")) }
        if client.deliveredCount > 0 || client.lastDelivered != nil {
            var line = "  delivered: \(client.deliveredCount) since the daemon started"
            if let last = client.lastDelivered {
                line += ", last \(TextFormat.dateTime(last))"
                // The age is the daemon's own clock: a receiver dated in 1970 or a recording's
                // old date does not make it "261 d ago".
                if let age = client.lastDeliveredAge {
                    line += " (\(TextFormat.duration(age)) ago)"
                } else if let now {
                    line += " (\(TextFormat.duration(now - last)) ago)"
                }
            }
            lines.append(line)
        }
        let unlogged = client.logWrite?.lost ?? 0
        if client.drops.total > 0 || unlogged > 0 {
            var parts = client.drops.total > 0 ? [client.drops.summary] : []
            // Delivered, but the line could not be written (held past the limit, or no log open).
            if unlogged > 0 { parts.append("not logged \(unlogged) (the log could not be written)") }
            lines.append("  not delivered: " + parts.joined(separator: ", "))
        }
        if let step = client.suggestion { lines.append("  " + NextStepText.line(step, reader: reader)) }
        if client.prompt != nil { lines.append("  ! a prompt is waiting for an answer (below)") }
        return lines
    }

    /// A pending prompt, standing out, with every answer as a command.
    /// Answering is the user's side: a reader who is not the operator is told whom to ask.
    public static func promptLines(_ prompt: Prompt, reader: ControlRole? = nil) -> [String] {
        // A new GeoClue app's prompt text holds its desktop id: escaped, so no text passes for
        // another prompt's lines.
        var lines = ["PROMPT  \(PeerText.escaped(prompt.client)) asks for \(TextFormat.promptKind(prompt.kind))"]
        if !prompt.text.isEmpty { lines.append("        \"\(PeerText.escaped(prompt.text))\"") }
        if reader?.isOperator == false {
            lines.append("  the operator (root or the socket group) answers it: \(TextFormat.answers(prompt))")
        } else {
            lines.append("  answer: \(TextFormat.answers(prompt))")
        }
        return lines
    }

    /// `locationctl prompts`: every pending prompt, or a line saying there are none.
    public static func renderPrompts(_ prompts: [Prompt]) -> String {
        guard !prompts.isEmpty else { return "No prompts are waiting.\n" }
        return prompts.flatMap { promptLines($0) }.joined(separator: "\n") + "\n"
    }
}
