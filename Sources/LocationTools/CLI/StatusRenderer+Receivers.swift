import LocationProtocol
import LocationValues

/// The receivers table of `locationctl status`, shown when more than one receiver reported:
///
/// ```
/// receivers (from gpsd 127.0.0.1:2947):
///   DEVICE        STATE     FIX  hACC      LAST  TTFF   FIXES  CLIENTS
///   /dev/pts/3    followed  3D   ±2.1 m    0 s   31.2 s     40  logger
///   /dev/pts/4    standby   3D   ±16.8 m   0 s   2.0 s      40  -
/// ```
///
/// TTFF is `-` while a receiver has had no usable fix since it appeared or its source reconnected.
/// With receivers of more than one source (`[source.NAME]`), a SOURCE column after DEVICE names
/// each one's source instead of the heading.
extension StatusRenderer {
    /// `31.2 s` below 90 s (testers compare tenths), then as other durations.
    static func ttff(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 89.95 else { return TextFormat.duration(seconds) }
        return (FixedDecimal.format(max(0, seconds), decimals: 1) ?? "?") + " s"
    }

    /// The table's lines, or none for one receiver or none.
    static func receiverLines(_ status: EngineStatus) -> [String] {
        guard status.receivers.count > 1 else { return [] }
        // Receivers of several sources (`[source.NAME]`) say which brought each.
        let sources = Set(status.receivers.map(\.source))
        var header = ["DEVICE", "STATE", "FIX", "hACC", "LAST", "TTFF", "FIXES", "CLIENTS"]
        if sources.count > 1 { header.insert("SOURCE", at: 1) }
        let fixesColumn = header.firstIndex(of: "FIXES") ?? 0
        let rows = status.receivers.map { r -> [String] in
            var row = [
                r.device.isEmpty ? "(unnamed)" : r.device, r.state.rawValue, r.quality.map { $0.mode.description } ?? "no fix",
                r.quality?.horizontalError.map(TextFormat.error) ?? "-", r.lastFixAge.map(TextFormat.duration) ?? "-",
                r.timeToFirstFix.map(Self.ttff) ?? "-", String(r.fixes), r.clients.isEmpty ? "-" : r.clients.joined(separator: ","),
            ]
            if sources.count > 1 { row.insert(r.source ?? "-", at: 1) }
            return row
        }
        let widths = header.indices.map { c in ([header] + rows).map { $0[c].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var out = "  "
            for (c, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                // FIXES is a number: right-aligned; the last column is not padded.
                if c == fixesColumn { out += pad + cell + "  " } else if c == cells.count - 1 { out += cell } else { out += cell + pad + "  " }
            }
            return out
        }
        // One source brings them all: named once, above the table.
        let from = sources.count == 1 ? sources.first.flatMap { $0 }.map { " (from \($0))" } ?? "" : ""
        return ["receivers\(from):", line(header)] + rows.map(line)
    }
}
