import Testing
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

@Suite struct ReplayEventsTests {
    @Test func parsesCommandsSkippingBlanksAndComments() throws {
        let text = """
            # field session 14 March
            {"at":"2026-03-14T23:52:00Z","cmd":"authorize","client":"logger","status":"never"}

               # indented comment
            {"at":"2026-03-14T23:53:00.500Z","cmd":"locate","client":"logger","timeout":10}\r
            {"at":"2026-03-15T01:54:00+02:00","id":9,"cmd":"services","state":"off"}
            """
        let events = try ReplayEvents.parse(text)
        #expect(events.count == 3)
        #expect(events[0] == ReplayEvent(
            at: UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 23, minute: 52, second: 0),
            command: .authorize(client: "logger", status: .never), line: 2))
        #expect(events[1].command == .locate(client: "logger", timeout: 10))
        #expect(events[1].line == 5)
        #expect(events[2].at == UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 23, minute: 54, second: 0))
    }

    @Test func takesResetAndAnAnswersPreciseSwitch() throws {
        let text = """
            {"at":"2026-03-14T23:52:00Z","cmd":"answer","client":"logger","answer":"allow-once","precise":false}
            {"at":"2026-03-14T23:52:01Z","cmd":"answer","client":"logger","answer":"allow-while-using","precise":true}
            {"at":"2026-03-14T23:52:02Z","cmd":"answer","client":"logger","answer":"deny"}
            {"at":"2026-03-14T23:53:00Z","cmd":"reset","client":"logger"}
            """
        let events = try ReplayEvents.parse(text)
        #expect(
            events.map(\.command) == [
                .answer(client: "logger", answer: .allowOnce, precise: false),
                .answer(client: "logger", answer: .allowWhileUsing, precise: true),
                .answer(client: "logger", answer: .deny, precise: nil), .reset(client: "logger"),
            ])
        #expect(throws: ReplayEventsError.self) {
            try ReplayEvents.parse(#"{"at":"2026-03-14T23:53:00Z","cmd":"reset"}"#)
        }
    }

    @Test func ordersByTimeKeepingFileOrderForEqualTimes() throws {
        let text = """
            {"at":"2026-03-14T23:55:00Z","cmd":"stop","client":"a"}
            {"at":"2026-03-14T23:50:00Z","cmd":"start","client":"b"}
            {"at":"2026-03-14T23:50:00Z","cmd":"start","client":"c"}
            {"at":"2026-03-14T23:50:00Z","cmd":"start","client":"a"}
            """
        let events = try ReplayEvents.parse(text)
        #expect(events.map(\.command.client) == ["b", "c", "a", "a"])
        #expect(events.map(\.line) == [2, 3, 4, 1])
    }

    @Test func reportsEveryBadLineByNumber() {
        let text = """
            {"at":"2026-03-14T23:52:00Z","cmd":"authorize","client":"logger","status":"never"}
            {"cmd":"start","client":"logger"}
            {"at":"tomorrow","cmd":"start","client":"logger"}
            {"at":"2026-03-14T23:52:00Z","cmd":"status"}
            {"at":"2026-03-14T23:52:00Z","cmd":"authorize","client":"logger","status":"sometimes"}
            not json
            {"at":"2026-03-14T23:52:00Z","cmd":"teleport"}
            """
        do {
            _ = try ReplayEvents.parse(text)
            Issue.record("accepted bad events")
        } catch {
            #expect(error.problems.map(\.line) == [2, 3, 4, 5, 6, 7])
            let description = error.description
            #expect(description.contains("line 2: missing \"at\""))
            #expect(description.contains("line 3: \"at\" must be ISO 8601"))
            #expect(description.contains("line 4: \"status\" only reads state"))
            #expect(description.contains("line 5: \"status\" of authorize cannot be \"sometimes\""))
            #expect(description.contains("line 6: not JSON"))
            #expect(description.contains("line 7: unknown command \"teleport\""))
        }
    }

    @Test func emptyFileHasNoEvents() throws {
        #expect(try ReplayEvents.parse("").isEmpty)
        #expect(try ReplayEvents.parse("\n# nothing\n\n").isEmpty)
    }
}
