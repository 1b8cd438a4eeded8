import LocationProtocol
import LocationValues

extension ProgramsSection: StatusSectionText {
    /// `  program: …` for each program on `client`'s sockets, then `  programs: …`, what they turned away.
    func clientLines(_ client: String, in report: StatusReport) -> [String] {
        var lines = programs.filter { $0.client == client }.map { "  program: \($0.summary)" }
        if let counts = counts[client] { lines.append("  programs: \(counts.summary)") }
        return lines
    }
}
