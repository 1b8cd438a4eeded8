import LocationValues

/// `locationctl report` as text: per client, when positions went out, how
/// many, and through which sinks, at which accuracy, to which peers.
public enum ReportRenderer {
    /// The `clients` list of a `report` reply, one block per client.
    public static func render(_ clients: JSONValue?) -> String {
        let list = clients?.arrayValue ?? []
        guard !list.isEmpty else { return "no positions were handed to any client you may see in this period\n" }
        var lines: [String] = []
        for client in list {
            let name = client["client"]?.stringValue ?? "?"
            let count = Int(client["count"]?.numberValue ?? 0)
            let first = client["first"]?.stringValue ?? "?"
            let last = client["last"]?.stringValue ?? "?"
            lines.append("\(name): \(count) position\(count == 1 ? "" : "s"), \(first) to \(last)")
            let sinks = (client["sinks"]?.objectValue ?? []).map { "\($0.0) \(Int($0.1.numberValue ?? 0))" }
            lines.append("  sinks: " + sinks.joined(separator: ", "))
            let full = Int(client["accuracy"]?["full"]?.numberValue ?? 0)
            let reduced = Int(client["accuracy"]?["reduced"]?.numberValue ?? 0)
            lines.append("  accuracy: full \(full), reduced \(reduced)")
            for peer in client["peers"]?.arrayValue ?? [] {
                // The user's name where the daemon's user database has one (`nobody`), else the uid.
                // Unit and process names are the peer's choice: escaped.
                var who = peer["user"]?.stringValue.map(PeerText.escaped) ?? peer["uid"]?.numberValue.map { "uid \(Int($0))" } ?? "uid unknown"
                if let unit = peer["unit"]?.stringValue { who += " \(PeerText.escaped(unit))" }
                if let process = peer["name"]?.stringValue { who += " (\(PeerText.escaped(process)))" }
                let sink = peer["sink"]?.stringValue ?? "?"
                lines.append("  \(who) via \(sink): \(Int(peer["count"]?.numberValue ?? 0))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
