import LocationProtocol
import LocationValues

/// How a face's `status` section reads on the terminal (`locationctl status`): a line under
/// Location Services (the face itself), and lines under each client (what the face does for
/// it). A section says it by conforming, in a file beside it named `SECTION+Text.swift`;
/// `StatusRenderer` asks every section of the report, in the report's order, and names none.
protocol StatusSectionText {
    /// The face's own lines, after Location Services (default: none).
    func headLines(_ report: StatusReport) -> [String]
    /// The face's lines under `client`, two spaces in (default: none).
    func clientLines(_ client: String, in report: StatusReport) -> [String]
}

extension StatusSectionText {
    func headLines(_ report: StatusReport) -> [String] { [] }
    func clientLines(_ client: String, in report: StatusReport) -> [String] { [] }
}

extension StatusSections {
    /// The sections that render themselves on the terminal, in order.
    var texts: [any StatusSectionText] { list.compactMap { $0 as? any StatusSectionText } }
}
