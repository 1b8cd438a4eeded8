import LocationProtocol
import LocationValues

/// What `locationctl summary` prints: a few lines for a person, or with
/// `--json` one JSON object (`TrackSummary.json`).
public enum SummaryRenderer {
    /// The text for `summary`, ending in a newline. `files` names the logs read;
    /// with a `reference`, each receiver's accuracy against it follows (`receiverLines`).
    public static func render(
        _ summary: TrackSummary, files: [String], reference: SurveyReference? = nil, receivers: [ReceiverAccuracy] = []
    ) -> String {
        var lines: [String] = []
        let clients = summary.clients.isEmpty ? "" : " (" + summary.clients.joined(separator: ", ") + ")"
        lines.append(
            "\(files.joined(separator: ", ")): \(count(summary.fixes, "fix", "fixes"))\(clients), "
                + "\(size(Double(summary.bytes)))")
        guard let start = summary.start, let end = summary.end, let duration = summary.duration else {
            lines.append(contentsOf: notes(summary))
            return lines.joined(separator: "\n") + "\n"
        }
        let sameDay = UTCTime.format(start).prefix(10) == UTCTime.format(end).prefix(10)
        lines.append(
            "time: \(TextFormat.dateTime(start)) to \(sameDay ? TextFormat.clock(end) + " UTC" : TextFormat.dateTime(end))"
                + " (\(SummaryRenderer.duration(duration)))")
        lines.append("distance: \(distanceText(summary)) (WGS-84 geodesic)")
        let threshold = seconds(summary.gapThreshold)
        if summary.gaps.isEmpty {
            lines.append("gaps over \(threshold): none")
        } else {
            let total = summary.gaps.reduce(0) { $0 + $1.seconds }
            lines.append("gaps over \(threshold): \(summary.gaps.count), \(TextFormat.duration(total)) in all")
            for gap in summary.gaps {
                let jump = gap.distance.map { ", \(length($0)) apart" } ?? ""
                // Gaps are one receiver's: with several, say whose.
                let whose = summary.receivers.count > 1 ? " (\(gap.device ?? "(unnamed)"))" : ""
                lines.append(
                    "  \(TextFormat.clock(gap.start)) – \(TextFormat.clock(gap.end))  \(TextFormat.duration(gap.seconds))\(jump)\(whose)")
            }
        }
        let reduced = summary.accuracies[.reduced] ?? 0
        if let median = summary.horizontalErrorMedian, let p95 = summary.horizontalError95 {
            let full = summary.fixes - reduced
            var of = summary.horizontalErrorCount == full ? "" : " (\(summary.horizontalErrorCount) with an estimate)"
            if reduced > 0 { of += "; of the \(full) full-accuracy records only" }
            lines.append(
                "horizontal accuracy: median \(TextFormat.error(median)), 95 % \(TextFormat.error(p95))"
                    + ", worst \(TextFormat.error(summary.horizontalErrorMaximum ?? p95))\(of)")
        } else {
            lines.append("horizontal accuracy: no estimates in the log" + (reduced > 0 ? " for full-accuracy records" : ""))
        }
        if reduced > 0 {
            // A reduced record's hAcc is its grid cell: shown apart, never mixed with receiver errors.
            lines.append("reduced accuracy: \(reduced) record\(reduced == 1 ? "" : "s") (grid cells, not receiver errors; not in the accuracy figures)")
        }
        let modes = TrackSummary.modeOrder.compactMap { mode in summary.modes[mode].map { "\(mode) \($0)" } }
        let accuracies = [DeliveredAccuracy.full, .reduced].compactMap { a in summary.accuracies[a].map { "\(a.rawValue) \($0)" } }
        lines.append("modes: \(modes.joined(separator: ", ")); accuracy: \(accuracies.joined(separator: ", "))")
        if let rate = summary.rate, let perHour = summary.bytesPerHour {
            lines.append(
                "rate: \(FixedDecimal.format(rate, decimals: rate < 10 ? 2 : 1) ?? "?") fixes/s; the log grows \(size(perHour)) an hour")
        }
        if let reference { lines.append(contentsOf: receiverLines(receivers, reference: reference)) }
        lines.append(contentsOf: notes(summary))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `1.2 km along the track`, or with several receivers each one's own track:
    /// `1.2 km along /dev/ttyACM0, 1.1 km along /dev/ttyUSB0` (never their sum).
    static func distanceText(_ summary: TrackSummary) -> String {
        guard summary.receivers.count > 1 else { return "\(length(summary.distance)) along the track" }
        return summary.receivers.map { "\(length($0.distance)) along \($0.device ?? "(unnamed)")" }.joined(separator: ", ")
    }

    /// The JSON line for `summary --json`; with a `reference`, `reference` and `devices` too.
    public static func renderJSON(
        _ summary: TrackSummary, files: [String], reference: SurveyReference? = nil, receivers: [ReceiverAccuracy] = []
    ) -> String {
        guard case .object(var members) = summary.json else { return summary.json.serialized + "\n" }
        members.append(("files", .array(files.map { .string($0) })))
        if let reference { members.append(contentsOf: ReceiverAccuracy.jsonMembers(receivers, reference: reference)) }
        return JSONValue.object(members).serialized + "\n"
    }

    static func notes(_ summary: TrackSummary) -> [String] {
        var lines: [String] = []
        if summary.repeats > 0 {
            lines.append("left out \(count(summary.repeats, "record", "records")) that repeat another (overlapping files?)")
        }
        if summary.badLines > 0 { lines.append("skipped \(count(summary.badLines, "line", "lines")) that are not records") }
        if summary.heartbeats > 0 { lines.append("heartbeats: \(summary.heartbeats) (nothing logged for a while, and why; not track points)") }
        return lines
    }

    /// `79 s`, `5 min 59 s`, `2 h 5 min`: minutes keep their seconds below an hour.
    static func duration(_ seconds: Double) -> String {
        let s = Int(max(0, seconds).rounded())
        guard s >= 90, s < 3600, s % 60 != 0 else { return TextFormat.duration(seconds) }
        return "\(s / 60) min \(s % 60) s"
    }

    static func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

    /// `850 m`, `12.35 km`.
    static func length(_ metres: Double) -> String {
        if metres < 1000 { return (FixedDecimal.format(metres, decimals: metres < 10 ? 1 : 0) ?? "?") + " m" }
        return (FixedDecimal.format(metres / 1000, decimals: 2) ?? "?") + " km"
    }

    /// `10 s`, `2.5 s`.
    static func seconds(_ s: Double) -> String {
        (s == s.rounded() ? String(Int(s)) : FixedDecimal.format(s, decimals: 1) ?? "?") + " s"
    }

    /// `812 bytes`, `74.1 kB`, `3.2 MB` (decimal units).
    static func size(_ bytes: Double) -> String {
        if bytes < 1000 { return "\(Int(bytes.rounded())) bytes" }
        if bytes < 1_000_000 { return (FixedDecimal.format(bytes / 1000, decimals: 1) ?? "?") + " kB" }
        return (FixedDecimal.format(bytes / 1_000_000, decimals: 1) ?? "?") + " MB"
    }
}
