import LocationProtocol
import LocationValues

extension SummaryRenderer {
    /// The lines `summary --reference` adds: what the fixes were measured
    /// against, then a table per two receivers (side by side), a row per figure.
    static func receiverLines(_ receivers: [ReceiverAccuracy], reference: SurveyReference) -> [String] {
        var lines: [String] = []
        switch reference {
        case .mark(let lat, let lon, let alt):
            let height = alt.map { ", " + (FixedDecimal.format($0, decimals: 3) ?? "?") + " m" } ?? ""
            lines.append("accuracy against \(TextFormat.position(latitude: lat, longitude: lon))\(height):")
        case .mean:
            lines.append("precision around each receiver's mean position:")
        }
        // Before the figures: they measure a path, not an error, for a receiver that moved.
        for warning in receivers.compactMap(\.movedWarning) { lines.append("  warning: " + warning) }
        var start = 0
        while start < receivers.count {
            let pair = Array(receivers[start..<min(start + 2, receivers.count)])
            start += 2
            var rows: [(String, [String])] = [("receiver", pair.map { $0.device ?? "(unnamed)" })]
            rows.append(
                ("fixes", pair.map { "\($0.fixes)" + ($0.reducedExcluded > 0 ? " (\($0.reducedExcluded) reduced left out)" : "") }))
            if reference == .mean {
                rows.append(("mean", pair.map { TextFormat.position(latitude: $0.latitude, longitude: $0.longitude) }))
            }
            rows.append(("CEP50", pair.map { metres($0.cep50) }))
            rows.append(("CEP95", pair.map { metres($0.cep95) }))
            rows.append(("CEP99", pair.map { metres($0.cep99) }))
            rows.append(("2DRMS", pair.map { metres($0.drms2) }))
            if reference != .mean {
                rows.append(("bias", pair.map { r in
                    guard let bias = r.bias, let bearing = r.biasBearing else { return "–" }
                    return metres(bias) + " towards " + (FixedDecimal.format(bearing, decimals: 0) ?? "?") + "°"
                }))
            }
            rows.append(("hAcc covers", pair.map { r in
                guard let share = r.haccCovers else { return "– (no hAcc)" }
                return (FixedDecimal.format(share * 100, decimals: 1) ?? "?") + " % of \(r.haccCount)"
            }))
            if pair.contains(where: { $0.verticalMedian != nil }) {
                rows.append(("vertical p50", pair.map { metres($0.verticalMedian) }))
                rows.append(("vertical p95", pair.map { metres($0.vertical95) }))
            }
            let labelWidth = rows.map(\.0.count).max() ?? 0
            let columnWidth = rows.map { $0.1.first?.count ?? 0 }.max() ?? 0
            for (label, values) in rows {
                var line = "  " + label + String(repeating: " ", count: labelWidth - label.count + 2)
                for (i, value) in values.enumerated() {
                    line += value
                    if i + 1 < values.count { line += String(repeating: " ", count: max(columnWidth - value.count, 0) + 3) }
                }
                lines.append(line)
            }
        }
        return lines
    }

    /// `1.23 m`, or `–` when it cannot be computed.
    static func metres(_ value: Double?) -> String {
        guard let value else { return "–" }
        return (FixedDecimal.format(value, decimals: 2) ?? "?") + " m"
    }
}
