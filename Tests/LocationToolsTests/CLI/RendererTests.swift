import Foundation
import Testing
import TestSupport
@testable import LocationProtocol
@testable import LocationValues
@testable import LocationTools

@Suite struct StatusRendererTests {
    static let text = StatusRenderer.render(Samples.report)
    static var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    @Test func sourceLineGivesLinkFixAgeAndQuality() {
        #expect(Self.lines.first == "gpsd 127.0.0.1:2947: connected, 3D fix 2 s ago, ±4.8 m, 9 satellites")
        #expect(Self.text.contains("Location Services: on"))
    }

    @Test(arguments: [
        (SourceState.connecting, nil as Fix?, "not connected (retrying)"),
        (.connecting, Samples.lastFix, "not connected (retrying); last fix 3D fix 2 s ago"),
        (.connected, nil, "connected, waiting for the receiver"),
        (.noFix, Samples.lastFix, "connected, the receiver has no fix; last fix 3D fix 2 s ago, ±4.8 m"),
        (.fix, Fix(time: 0, mode: .twoD, latitude: 1, longitude: 2), "connected, 2D fix 2 s ago, accuracy unknown"),
    ])
    func sourceLineForEveryState(state: SourceState, fix: Fix?, expected: String) {
        let status = EngineStatus(services: true, source: state, lastFix: fix, lastFixAge: fix == nil ? nil : 2, clients: [])
        #expect(StatusRenderer.sourceLine(status).hasPrefix(expected), "\(StatusRenderer.sourceLine(status))")
    }

    @Test func aDeliveringClientSaysSoWithoutASuggestion() throws {
        let block = try #require(Self.text.components(between: "logger:", and: "tracker:"))
        #expect(block.contains("while-using (once), full accuracy"))
        #expect(block.contains("in use, updating"))
        #expect(block.contains("getting locations: yes"))
        #expect(block.contains("delivered: 12 since the daemon started, last 2026-03-14 12:00:01 UTC (2 s ago)"))
        #expect(!block.contains("→ run:"))
    }

    @Test func dropsAreSummarisedPerClientAndTimeJumpsOnce() throws {
        let block = try #require(Self.text.components(between: "tracker:", and: "survey:"))
        #expect(block.contains("  not delivered: not authorized 52, unusable 3\n"))
        #expect(Self.text.contains(
            "receiver time: went back 52 min (to 2026-03-14 11:07:03 UTC) 3 min ago; a new time base, logging continues (2 jumps since the daemon started)"))
        #expect(!Self.text.contains("receiver clock:"))
    }

    @Test func aReceiverClockFarFromTheSystemClockIsStatedNotTurnedIntoAnAge() throws {
        // A recording from March played in December: the fix is 261 days old by its date, 2 s by the clock.
        var status = Samples.status
        status.timeJumps = 0
        status.lastTimeJump = nil
        let now = Samples.t0 + 261 * 86_400
        let text = StatusRenderer.render(StatusReport(status: status, time: now, sourceName: "gpsd"))
        #expect(text.contains("receiver clock: 261 d behind the system clock (its last fix is dated 2026-03-14 12:00:01 UTC)"))
        #expect(text.contains("last 2026-03-14 12:00:01 UTC (2 s ago)"))
        #expect(!text.contains("261 d ago"))
    }

    @Test func aBlockedClientSaysWhyAndTheOneCommandThatFixesIt() throws {
        let block = try #require(Self.text.components(between: "tracker:", and: "survey:"))
        #expect(block.contains("never, full accuracy"))
        #expect(block.contains("getting locations: NO — tracker is set to never."))
        #expect(block.contains("  → run: locationctl authorize tracker while-using"))
    }

    @Test func pendingPromptsStandOutWithEveryAnswerAsACommand() {
        #expect(Self.text.contains("locate pending"))
        #expect(Self.text.contains("! a prompt is waiting for an answer"))
        #expect(Self.text.contains("PROMPT  survey asks for temporary full accuracy"))
        #expect(Self.text.contains("\"Precise track\""))
        #expect(Self.text.contains("  answer: locationctl answer survey allow | deny"))
        let prompts = StatusRenderer.renderPrompts([Samples.whileUsingPrompt])
        #expect(prompts.contains("answer: locationctl answer logger allow-once | allow-while-using | deny"))
        #expect(StatusRenderer.renderPrompts([]) == "No prompts are waiting.\n")
    }

    @Test func servicesOffIsExplainedPerClientAndOverall() {
        let status = EngineStatus(services: false, source: .connecting, lastFix: nil, lastFixAge: nil, clients: [Samples.servicesOff])
        let text = StatusRenderer.render(StatusReport(status: status))
        #expect(text.hasPrefix("source: not connected (retrying)\n"))
        #expect(text.contains("Location Services: off"))
        #expect(text.contains("logger: never (provisional, services off), temporary full accuracy (survey)"))
        #expect(text.contains("not in use, updating"))
        #expect(text.contains("→ run: locationctl services on"))
        #expect(text.contains("answer: locationctl answer logger allow-once | allow-while-using | deny"))
    }
}

@Suite struct EventRendererTests {
    @Test(arguments: [
        (Samples.events[0], "12:00:03 logger authorization → while-using (once), full accuracy"),
        (Samples.events[2],
         "12:00:03 logger prompt while-using \"Logs coordinates for field tests\" — answer: locationctl answer logger allow-once | allow-while-using | deny"),
        (Samples.events[3], "survey prompt full-accuracy closed"),
        (Samples.events[4], "12:00:03 logger error location-unknown: no fix for 5 s"),
        (Samples.events[6], "12:00:03 source → no-fix"),
        (Samples.events[7],
         "12:00:03 source: receiver time went back 52 min (to 2026-03-14 11:08:03 UTC); a new time base, logging continues"),
        (Samples.events[8], "12:00:04 logger location 52.3765432,4.8954321 ±4.8 m full"),
        (Samples.events[9], "12:00:03 logger stop: logger stopped updating; its pending locate is cancelled"),
        (Samples.events[10],
         "12:00:03 state not saved: cannot save the state to /s/state.json since 2026-03-14 12:00:03 UTC: EROFS; "
            + "a restart now would undo: x"),
    ])
    func rendersOneReadableLinePerEvent(event: ControlEvent, expected: String) {
        #expect(EventRenderer.render(event) == expected)
    }

    /// #39: the opening state is printed as the state, under a header, and the first change after it opens the events.
    @Test func theOpeningStateIsMarkedAsTheStateAndTheEventsAfterItAsEvents() {
        let a = ClientAuthorization(client: "logger", status: .whileUsing, stored: .whileUsing)
        let opening = ControlEvent.snapshot(source: .fix, authorizations: [a], prompts: [], time: Samples.t0, client: nil)
        var transcript = WatchTranscript()
        var lines = opening.flatMap { transcript.lines(for: $0, receivedAt: Samples.t0) }
        lines += transcript.lines(for: ControlEvent(.source(.noFix), time: Samples.t0 + 5), receivedAt: Samples.t0 + 5)
        #expect(lines == [
            "12:00:03 the state as watch begins:",
            "  source fix",
            "  logger authorization while-using, full accuracy",
            "events as they happen:",
            "12:00:08 source → no-fix",
        ])
    }

    @Test func watchLinesStartWithTheSystemClockAndLabelTheFixTime() throws {
        let event = Samples.events[8]
        let fixTime = try #require(event.time)
        #expect(
            EventRenderer.render(event, receivedAt: fixTime + 1)
                == "12:00:05 logger location 52.3765432,4.8954321 ±4.8 m full (fix time 12:00:04)")
        // A receiver whose clock is 261 days behind: the fix time says so, with its date.
        let late = EventRenderer.render(event, receivedAt: fixTime + 261 * 86_400)
        #expect(late.hasPrefix("12:00:04 logger location ") && late.hasSuffix("(fix time \(TextFormat.dateTime(fixTime)))"))
        // Engine events keep the daemon's time, the same system clock.
        #expect(EventRenderer.render(Samples.events[0], receivedAt: fixTime + 9).hasPrefix("12:00:03 logger authorization"))
    }

    @Test func rendersLogRecordsWithTheDateForTail() {
        let line = EventRenderer.render(Samples.tokyo, withDate: true)
        #expect(line == "2026-03-14 23:50:01 UTC logger location 35.6811990,139.7670669 ±17.1 m alt 40.0 m 0.3 m/s full")
    }
}

@Suite struct ReplyRendererTests {
    @Test func commandSuccessSaysWhatHappenedAndListsAnOpenedPrompt() {
        let reply = ControlReply(
            id: 1, result: .success(CommandOutcome(changed: true, message: "logger asks for while-using", prompt: Samples.whileUsingPrompt)))
        let result = ReplyRenderer.render(reply, for: .command(.request(client: "logger", kind: .whileUsing)))
        #expect(result.exitCode == .ok && !result.isError)
        #expect(result.text.hasPrefix("logger asks for while-using\n"))
        #expect(result.text.contains("answer: locationctl answer logger allow-once | allow-while-using | deny"))
    }

    @Test(arguments: [
        ("denied", Command.start(client: "logger"), "→ run: locationctl authorize logger while-using"),
        ("denied", Command.share(client: "logger"), "→ run: locationctl authorize logger ask"),
        ("not-in-use", Command.requestFullAccuracy(client: "cam", purpose: "p"), "→ run: locationctl session cam begin"),
        ("no-prompt", Command.answer(client: "logger", answer: .deny), "locationctl prompts"),
        ("missing-usage-description", Command.request(client: "cam", kind: .always), "[client.cam]"),
        ("restricted", Command.authorize(client: "cam", status: .always), "[policy] restricted"),
        ("not-authorized", Command.services(on: false), "socket group"),
        ("unknown-client", Command.stop(client: "nobody"), "locationctl status"),
    ])
    func errorsSayWhatToDoNext(code: String, command: Command, hint: String) {
        let reply = ControlReply.error(id: 1, code: code, message: "refused because")
        let result = ReplyRenderer.render(reply, for: .command(command))
        #expect(result.exitCode == .refused && result.isError)
        #expect(result.text.hasPrefix("locationctl: refused because\n"))
        #expect(result.text.contains(hint), "\(result.text)")
    }

    @Test func unreadableRepliesAreRefusalsNotCrashes() {
        let result = ReplyRenderer.render(.ok(id: 1, fields: [("status", "garbage")]), for: .status(client: nil))
        #expect(result.exitCode == .refused && result.isError)
        #expect(result.text.contains("unexpected message from locationd"))
    }

    @Test func statusAndHelloRenderThroughTheirRenderers() {
        let status = ReplyRenderer.render(.status(id: 1, Samples.report), for: .status(client: nil))
        #expect(status.text == StatusRenderer.render(Samples.report))
        let hello = ReplyRenderer.render(.hello(id: 1, HelloReply(clients: [])), for: .hello)
        #expect(hello.text == "locationd \(LocationdVersion.string), protocol 1\n")
    }
}

extension String {
    /// The text between the first `start` and the next `end` after it (or the end).
    func components(between start: String, and end: String) -> Substring? {
        guard let s = range(of: start) else { return nil }
        let rest = self[s.upperBound...]
        guard let e = rest.range(of: end) else { return rest }
        return rest[..<e.lowerBound]
    }
}
