import Testing
import TestSupport
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

@Suite struct ControlReplyTests {
    @Test func writesOkAndErrorRepliesWithTheId() throws {
        #expect(ControlReply.ok(id: 7, fields: [("changed", true)]).line() == #"{"id":7,"ok":true,"changed":true}"# + "\n")
        #expect(
            ControlReply.error(id: "a", code: "restricted", message: "locked").line()
                == #"{"id":"a","ok":false,"error":{"code":"restricted","message":"locked"}}"# + "\n")
        #expect(ControlReply.ok(id: nil).line() == #"{"ok":true}"# + "\n")
        #expect(ControlReply.ok(id: .null).line() == #"{"id":null,"ok":true}"# + "\n")
    }

    @Test func commandOutcomesAndErrorsRoundTrip() throws {
        let outcome = CommandOutcome(changed: true, message: "prompt opened", prompt: Samples.fullAccuracyPrompt)
        let reply = ControlReply(id: 3, result: .success(outcome))
        guard case .reply(let back) = try ServerMessage.decode(reply.line()) else {
            Issue.record("not a reply")
            return
        }
        #expect(back.id == 3)
        #expect(try back.commandOutcome() == outcome)

        let refused = ControlReply(id: 4, result: .failure(CommandError(.restricted, "logger is locked by [policy]")))
        guard case .reply(let err) = try ServerMessage.decode(refused.line()) else {
            Issue.record("not a reply")
            return
        }
        #expect(!err.isOK)
        #expect(err.error?.code == "restricted")
        #expect(err.error?.message == "logger is locked by [policy]")
    }

    @Test func helloCarriesTheProtocolVersionAndClientLogs() throws {
        let hello = HelloReply(clients: [.init(name: "logger", log: "/var/log/locationd/logger.jsonl"), .init(name: "x")])
        let line = ControlReply.hello(id: 1, hello).line()
        #expect(line.hasPrefix(#"{"id":1,"ok":true,"protocol":1,"version":""#))
        guard case .reply(let reply) = try ServerMessage.decode(line) else {
            Issue.record("not a reply")
            return
        }
        #expect(try reply.hello() == hello)
    }

    @Test func statusRoundTripsExceptForMillisecondTimes() throws {
        let line = ControlReply.status(id: 2, Samples.report).line()
        guard case .reply(let reply) = try ServerMessage.decode(line) else {
            Issue.record("not a reply")
            return
        }
        let back = try reply.statusReport()
        #expect(back.sourceName == "gpsd 127.0.0.1:2947")
        #expect(back.time == Samples.t0)  // whole seconds survive millisecond text exactly
        #expect(back.status == Samples.status)
        #expect(back.status.clients[1].drops[.notAuthorized] == 52)
        #expect(back.status.clients[0].lastDeliveredAge == 2)
        #expect(back.status.timeJumps == 2)
    }

    @Test func everyDropReasonIsInTheClientStatus() throws {
        let json = Samples.denied.json
        let dropped = try #require(json["dropped"]?.objectValue)
        #expect(dropped.map(\.0) == DropReason.allCases.map(\.rawValue))
        #expect(json["dropped"]?["not-authorized"] == 52)
        #expect(json["dropped"]?["same-epoch"] == 0)
    }

    @Test func statusOfServicesOffKeepsStoredStatusReasonAndPurpose() throws {
        let status = EngineStatus(services: false, source: .connecting, lastFix: nil, lastFixAge: nil, clients: [Samples.servicesOff])
        let json = status.json
        let client = try #require(json["clients"]?.arrayValue?.first)
        #expect(client["status"] == "never")
        #expect(client["stored"] == "always")
        #expect(client["reason"] == "services-off")
        #expect(client["accuracy"] == "temporary-full")
        #expect(client["purpose"] == "survey")
        #expect(client["suggestion"] == "services on")
        #expect(try EngineStatus(json: json) == status)
    }

    @Test func reportCanBeNarrowedToOneClient() throws {
        let one = try #require(Samples.report.only(client: "tracker"))
        #expect(one.status.clients.map(\.authorization.client) == ["tracker"])
        #expect(one.status.lastFix == Samples.lastFix)
        #expect(Samples.report.only(client: "nobody") == nil)
    }

    @Test func promptsReplyListsAnswers() throws {
        let line = ControlReply.prompts(id: 5, [Samples.whileUsingPrompt, Samples.fullAccuracyPrompt]).line()
        #expect(line.contains(#""answers":["allow-once","allow-while-using","deny"]"#))
        #expect(line.contains(#""purpose":"survey","answers":["allow","deny"]"#))
        guard case .reply(let reply) = try ServerMessage.decode(line) else {
            Issue.record("not a reply")
            return
        }
        #expect(try reply.prompts() == [Samples.whileUsingPrompt, Samples.fullAccuracyPrompt])
    }

    @Test(arguments: [
        "nonsense", "[]", #"{"id":1}"#, #"{"ok":false,"error":{"code":"x"}}"#, #"{"event":"teleport"}"#,
        #"{"event":"source","state":"on-fire"}"#, #"{"event":"location","lat":1}"#,
    ])
    func refusesUnreadableServerLines(line: String) {
        #expect(throws: ControlDecodeError.self) { try ServerMessage.decode(line) }
    }
}

@Suite struct ControlEventTests {
    static let events = Samples.events

    @Test(arguments: events)
    func roundTripsEveryEventKind(event: ControlEvent) throws {
        let line = event.text
        #expect(line.hasPrefix(#"{"event":""# + event.name + "\""))
        #expect(line.hasSuffix("}\n"))
        guard case .event(let back) = try ServerMessage.decode(line) else {
            Issue.record("not an event: \(line)")
            return
        }
        #expect(back == event)
    }

    @Test func locationEventsAreLogRecordsWithAnEventKey() throws {
        let record = LogRecordTests.tokyo
        let line = ControlEvent(location: record).text
        #expect(line == #"{"event":"location","# + record.text.dropFirst())
        #expect(try LogRecord.parse(line) == record)
    }

    @Test func watchFiltersByClientButSourceEventsReachEveryone() {
        let source = ControlEvent(.source(.fix), time: nil)
        let logger = ControlEvent(.error(client: "logger", code: .denied, message: ""), time: nil)
        #expect(source.matches(client: "other"))
        #expect(logger.matches(client: nil))
        #expect(logger.matches(client: "logger"))
        #expect(!logger.matches(client: "other"))
    }

    @Test func promptEventsSayWhetherTheyOpenOrClose() {
        #expect(ControlEvent(.prompt(Samples.whileUsingPrompt, open: true), time: nil).text.contains(#""open":true"#))
        #expect(ControlEvent(.prompt(Samples.whileUsingPrompt, open: false), time: nil).text.contains(#""open":false"#))
    }
}

@Suite struct WatchSnapshotTests {
    @Test func aNewWatcherGetsSourceAuthorizationsThenPrompts() {
        let a = ClientAuthorization(client: "logger", status: .ask, stored: .ask)
        let b = ClientAuthorization(client: "cam", status: .never, stored: .never)
        let all = ControlEvent.snapshot(
            source: .fix, authorizations: [a, b], prompts: [Samples.whileUsingPrompt], time: 5, client: nil)
        #expect(all.map(\.name) == ["source", "authorization", "authorization", "prompt"])
        #expect(all.allSatisfy { $0.time == 5 })
        let one = ControlEvent.snapshot(
            source: .fix, authorizations: [a, b], prompts: [Samples.whileUsingPrompt], time: 5, client: "cam")
        var source = ControlEvent(.source(.fix), time: 5)
        var authorization = ControlEvent(.authorization(b), time: 5)
        source.snapshot = true
        authorization.snapshot = true
        #expect(one == [source, authorization])
    }

    /// #39: the opening state is marked as such on the wire, so no reader takes it for changes.
    @Test func theSnapshotIsMarkedAndTheMarkRoundTrips() throws {
        let events = ControlEvent.snapshot(source: .fix, authorizations: [], prompts: [], time: 5, client: nil)
        let line = try #require(events.first).text
        #expect(line.hasPrefix(#"{"event":"source","time":"#) && line.contains(#","snapshot":true,"state":"fix""#), "\(line)")
        guard case .event(let back) = try ServerMessage.decode(line) else {
            Issue.record("not an event: \(line)")
            return
        }
        #expect(back.snapshot && back == events.first)
        #expect(!ControlEvent(.source(.fix), time: 5).text.contains("snapshot"))
    }

    @Test func unknownClientRepliesListTheConfiguredNames() {
        let reply = ControlReply.unknownClient(id: 1, client: "loger", known: ["logger", "cam"])
        #expect(reply.error?.code == "unknown-client")
        #expect(reply.error?.message == #"no client named "loger" (did you mean "logger"?); configured: logger, cam"#)
    }
}
