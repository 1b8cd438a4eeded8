import Testing
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// A prompt whose app went away is withdrawn, unanswered (#47): watchers are told, the client stays
/// `ask`, and the next request opens a new prompt.
@Suite struct PromptWithdrawTests {
    typealias E = TestEngine

    @Test func aWithdrawnPromptIsToldAndTheClientStaysAsk() {
        var engine = E.engine([E.client("app"), E.client("other")])
        _ = engine.run(.request(client: "app", kind: .whileUsing))
        _ = engine.run(.request(client: "other", kind: .whileUsing))
        let effects = engine.withdrawPrompt(of: "app", reason: "its app left the bus", now: E.t0 + 1)
        let withdrawn = effects.events.compactMap { if case .promptWithdrawn(let p, let why) = $0 { (p, why) } else { nil } }
        #expect(withdrawn.count == 1 && withdrawn[0].0.client == "app" && withdrawn[0].0.kind == .whileUsing)
        #expect(withdrawn.first?.1 == "its app left the bus")
        #expect(effects.persists == 0, "nothing saved changes")
        #expect(engine.prompts.map(\.client) == ["other"], "another client's prompt stays")
        #expect(engine.auth("app").stored == .ask && engine.auth("app").status == .ask)
        #expect(engine.run(.answer(client: "app", answer: .deny)).error?.code == .noPrompt)
        // The app comes back and asks again: a new prompt.
        #expect(engine.run(.request(client: "app", kind: .whileUsing), at: 2).effects.openedPrompts.map(\.client) == ["app"])
    }

    @Test func withNoPromptOrNoSuchClientNothingHappens() {
        var engine = E.engine([E.client("app")])
        #expect(engine.withdrawPrompt(of: "app", reason: "gone", now: E.t0).isEmpty)
        #expect(engine.withdrawPrompt(of: "nobody", reason: "gone", now: E.t0).isEmpty)
    }

    /// The event carries `withdrawn` and the reason, and reads back as it was written.
    @Test func theEventSaysWithdrawnAndRoundTrips() throws {
        let event = ControlEvent(
            .promptWithdrawn(Prompt(client: "gc-x-1000", kind: .whileUsing, text: "The app x asks"), reason: "its app left the bus"),
            time: E.t0)
        let line = String(decoding: event.line(), as: UTF8.self)
        #expect(line.contains(#""event":"prompt""#) && line.contains(#""open":false,"withdrawn":true"#), "\(line)")
        #expect(line.contains(#""message":"its app left the bus""#), "\(line)")
        #expect(try ControlEvent(json: JSONValue.parse(line)) == event)
    }
}
