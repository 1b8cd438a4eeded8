import LocationCore

/// The receivers table of `locationctl status`, shown when more than one receiver reported:
///
/// ```
/// receivers:
///   DEVICE        STATE     FIX  hACC      LAST   FIXES  CLIENTS
///   /dev/pts/3    followed  3D   ±2.1 m    0 s       40  logger
///   /dev/pts/4    standby   3D   ±16.8 m   0 s       40  -
/// ```
extension StatusRenderer {
    /// The table's lines, or none for one receiver or none.
    static func receiverLines(_ status: EngineStatus) -> [String] {
        guard status.receivers.count > 1 else { return [] }
        let header = ["DEVICE", "STATE", "FIX", "hACC", "LAST", "FIXES", "CLIENTS"]
        let rows = status.receivers.map { r -> [String] in
            [
                r.device.isEmpty ? "(unnamed)" : r.device, r.state.rawValue, r.quality.map { $0.mode.description } ?? "no fix",
                r.quality?.horizontalError.map(TextFormat.error) ?? "-", r.lastFixAge.map(TextFormat.duration) ?? "-",
                String(r.fixes), r.clients.isEmpty ? "-" : r.clients.joined(separator: ","),
            ]
        }
        let widths = header.indices.map { c in ([header] + rows).map { $0[c].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var out = "  "
            for (c, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                // FIXES is a number: right-aligned; the last column is not padded.
                if c == 5 { out += pad + cell + "  " } else if c == cells.count - 1 { out += cell } else { out += cell + pad + "  " }
            }
            return out
        }
        return ["receivers:", line(header)] + rows.map(line)
    }
}
