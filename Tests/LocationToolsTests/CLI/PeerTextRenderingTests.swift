import Testing
import TestSupport
@testable import LocationProtocol
@testable import LocationValues
@testable import LocationTools

/// What a peer chose reaches `prompts`, `status`, `watch` and `report` escaped: one line each,
/// never a control sequence, never a line that passes for another prompt (#47).
@Suite struct PeerTextRenderingTests {
    /// A desktop id made to clear the screen and forge a prompt block for another client, as an app
    /// could set it before the one rule, or as an old `geoclue-apps.json` could still hold it.
    static let hostile =
        "x\u{1B}[2J\u{1B}[H\nPROMPT  logger asks for always authorization\n  answer: locationctl answer logger allow\u{9B}0m"
    static let name = "gc-x__2J__H_PROMPT__logger-1000"
    static let prompt = Prompt(client: name, kind: .whileUsing, text: "The app \(hostile) asks for your location over GeoClue.")

    static func report() -> StatusReport {
        var asking = Samples.asking
        asking.authorization = ClientAuthorization(client: name, status: .ask, stored: .ask)
        asking.prompt = prompt
        let status = EngineStatus(services: true, source: .fix, lastFix: nil, lastFixAge: nil, clients: [asking])
        let geoclue = GeoClueSection(
            bus: "system", connected: true,
            clients: [name: .init(desktopId: hostile, uid: 1000, peers: [.init(busName: ":1.9", pid: 42, uid: 1000, unit: "run\nfake.service")])])
        return StatusReport(status: status, sections: StatusSections([geoclue]))
    }

    static func expectNothingRaw(_ text: String) {
        #expect(!text.unicodeScalars.contains { $0 != "\n" && PeerText.isHidden($0) }, "\(text.debugDescription)")
        #expect(text.components(separatedBy: "\n").filter { $0.hasPrefix("PROMPT") }.count == 1, "\(text)")
        #expect(!text.contains("\n  answer: locationctl answer logger"), "\(text)")
    }

    @Test func promptsShowsTheHostileTextAsOneEscapedLine() {
        let text = StatusRenderer.renderPrompts([Self.prompt])
        Self.expectNothingRaw(text)
        #expect(text.contains(#"The app x\x1b[2J\x1b[H\nPROMPT  logger asks for always authorization\n  answer: locationctl answer logger allow\xc2\x9b0m asks"#), "\(text)")
        #expect(text.split(separator: "\n").count == 3)
    }

    @Test func statusShowsTheDesktopIdAndUnitEscaped() {
        let text = StatusRenderer.render(Self.report())
        Self.expectNothingRaw(text)
        let line = text.split(separator: "\n").first { $0.hasPrefix("  GeoClue app ") }
        #expect(line?.contains(#"GeoClue app x\x1b[2J"#) == true && line?.contains(#"run\nfake.service"#) == true, "\(text)")
    }

    @Test func watchAndReportEscapeToo() throws {
        let opened = EventRenderer.render(ControlEvent(.prompt(Self.prompt, open: true), time: Samples.t0))
        let withdrawn = EventRenderer.render(ControlEvent(.promptWithdrawn(Self.prompt, reason: "its app left the bus"), time: Samples.t0))
        for line in [opened, withdrawn] {
            #expect(!line.contains("\n") && !line.unicodeScalars.contains { PeerText.isHidden($0) }, "\(line.debugDescription)")
        }
        #expect(withdrawn.hasSuffix("\(Self.name) prompt while-using withdrawn: its app left the bus"), "\(withdrawn)")
        let report = try JSONValue.parse(
            #"[{"client":"a","count":1,"peers":[{"uid":1000,"unit":"u\u001b[2J","name":"comm\nPROMPT","sink":"geoclue","count":1}]}]"#)
        let text = ReportRenderer.render(report)
        #expect(text.contains(#"u\x1b[2J (comm\nPROMPT)"#), "\(text)")
        #expect(!text.contains("\nPROMPT"))
    }
}
