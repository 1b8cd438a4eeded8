#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationValues
@testable import LocationDaemon
import Testing

/// `watch` streams: order of reply, snapshot and events; many watchers; slow
/// watchers cut off without holding up the others.
@Suite(.timeLimit(.minutes(10))) struct ControlServerWatchTests {
    static func event(_ i: Int, client: String = "logger") -> ControlEvent {
        ControlEvent(
            location: LogRecord(
                time: 1_773_489_600 + Double(i), latitude: 52.3765432, longitude: 4.8954321 + Double(i) * 1e-6,
                altitude: 3.5, horizontalError: 4.8, verticalError: nil, speed: nil, course: nil, mode: .threeD,
                satellites: 9, accuracy: .full, client: client))
    }

    @Test func aWatcherGetsTheReplyThenTheCurrentStateThenEvents() async throws {
        let fixture = try ServerFixture()
        let watcher = try fixture.client()
        try await watcher.send(ControlRequest(id: 5, .watch(client: "logger")))
        let reply = try #require(try await watcher.message())
        guard case .reply(let ok) = reply else { Issue.record("expected the reply first"); return }
        #expect(ok.id == 5 && ok["watching"] == "logger")
        var names: [String?] = []
        for _ in 0..<2 { names.append(try #require(try await watcher.json())["event"]?.stringValue) }
        #expect(names == ["source", "authorization"])
        #expect(await fixture.eventually { fixture.handler.watcherCount == 1 })
        fixture.handler.broadcast(Self.event(1, client: "survey"))  // not this watcher's client
        fixture.handler.broadcast(Self.event(2))
        let location = try #require(try await watcher.json())
        #expect(location["event"] == "location" && location["client"] == "logger")
        #expect(location["time"]?.stringValue == UTCTime.format(1_773_489_602))
    }

    @Test func aRefusedWatchLeavesAnOrdinaryConnection() async throws {
        let fixture = try ServerFixture()
        let client = try fixture.client()
        try await client.send(ControlRequest(id: 1, .watch(client: "nobody")))
        let refused = try #require(try await client.json())
        #expect(refused["error"]?["code"] == "unknown-client")
        #expect(try await client.request(.hello, id: 2).isOK)
    }

    @Test func whatAWatcherSendsIsIgnoredAndItsHangUpUnwatches() async throws {
        let fixture = try ServerFixture()
        do {
            let watcher = try fixture.client()
            try await watcher.send(ControlRequest(id: 1, .watch(client: nil)))
            _ = try await watcher.line()
            try await watcher.send(line: #"{"id":2,"cmd":"hello"}"#)
            try await watcher.send(line: "garbage")
            #expect(await fixture.eventually { fixture.handler.watcherCount == 1 })
            fixture.handler.broadcast(Self.event(1))
            // Skip the snapshot (source + 2 clients); the next line is the event, not a reply.
            for _ in 0..<3 { _ = try await watcher.line() }
            let next = try #require(try await watcher.json())
            #expect(next["event"] == "location")
        }
        #expect(await fixture.eventually { fixture.handler.unwatched.count == 1 && fixture.handler.watcherCount == 0 })
        #expect(await fixture.eventually { fixture.server.statistics.connections == 0 })
    }

    @Test func sixtyFourConcurrentWatchersEachGetEveryEventInOrder() async throws {
        let fixture = try ServerFixture()
        let watchers = try (0..<64).map { _ in try fixture.client() }
        for (i, watcher) in watchers.enumerated() {
            try await watcher.send(ControlRequest(id: .number(Double(i)), .watch(client: nil)))
        }
        #expect(await fixture.eventually { fixture.handler.watcherCount == 64 })
        for i in 0..<200 { #expect(fixture.handler.broadcast(Self.event(i)) == 64) }
        for watcher in watchers {
            // Reply, source, two authorizations, then the 200 events in order.
            for _ in 0..<4 { _ = try await watcher.line() }
            for i in 0..<200 {
                let event = try #require(try await watcher.json())
                #expect(event["time"]?.stringValue == UTCTime.format(1_773_489_600 + Double(i)))
            }
        }
        #expect(await fixture.eventually { fixture.server.statistics.watchers == 64 })
        #expect(fixture.handler.refusedByWatchers == 0)
        // Ordinary requests are served alongside.
        #expect(try await fixture.client().request(.hello, id: 1).isOK)
    }

    @Test func aWatcherThatDoesNotReadIsCutOffWhileAnotherKeepsReceiving() async throws {
        let backlog = 64 << 10
        let fixture = try ServerFixture(limits: ControlServer.Limits(watcherBacklog: backlog, closeGrace: 10))
        let slow = try fixture.client()
        let fast = try fixture.client()
        try await slow.send(ControlRequest(id: 1, .watch(client: nil)))
        try await fast.send(ControlRequest(id: 2, .watch(client: nil)))
        #expect(await fixture.eventually { fixture.handler.watcherCount == 2 })
        for _ in 0..<4 { _ = try await fast.line() }

        // Batches the fast watcher reads in full before the next; the slow one reads nothing.
        var sent = 0
        var batches = 0
        while fixture.server.statistics.cutOff == 0 && batches < 400 {
            for _ in 0..<100 {
                fixture.handler.broadcast(Self.event(sent))
                sent += 1
            }
            for i in (sent - 100)..<sent {
                let event = try #require(try await fast.json())
                #expect(event["time"]?.stringValue == UTCTime.format(1_773_489_600 + Double(i)))
            }
            batches += 1
        }
        #expect(fixture.server.statistics.cutOff == 1)
        #expect(fixture.handler.refusedByWatchers == 1, "the handler was told (send returned false)")
        #expect(fixture.handler.watcherCount == 1)
        #expect(await fixture.eventually { fixture.handler.unwatched.count == 1 })

        // The slow watcher finds whole lines, then the reason, then the end.
        var last: JSONValue?
        var lines = 0
        while let line = try await slow.line() {
            last = try JSONValue.parse(line)
            lines += 1
        }
        #expect(lines < sent + 4, "events were dropped, not buffered")
        #expect(last?["ok"] == false)
        #expect(last?["error"]?["code"]?.stringValue == ControlServer.tooSlowCode)

        // The fast one is still served.
        fixture.handler.broadcast(Self.event(sent))
        #expect(try await fast.json()?["event"] == "location")
    }

    @Test func watchersAreNotClosedForBeingIdle() async throws {
        let fixture = try ServerFixture(limits: ControlServer.Limits(idleTimeout: 1))
        let watcher = try fixture.client()
        try await watcher.send(ControlRequest(id: 1, .watch(client: "logger")))
        for _ in 0..<3 { _ = try await watcher.line() }
        let idle = try fixture.client()
        // The idle connection goes; the watcher, silent at least as long, stays.
        #expect(try await idle.line() == nil)
        fixture.handler.broadcast(Self.event(1))
        #expect(try await watcher.json()?["event"] == "location")
        #expect(await fixture.eventually { fixture.server.statistics.idleClosed == 1 })
    }

    @Test func stoppingTheServerTellsWatchersWhy() async throws {
        let fixture = try ServerFixture()
        let watcher = try fixture.client()
        try await watcher.send(ControlRequest(id: 1, .watch(client: "logger")))
        for _ in 0..<3 { _ = try await watcher.line() }
        fixture.server.stop()
        let last = try #require(try await watcher.json())
        #expect(last["error"]?["code"]?.stringValue == ControlServer.shuttingDownCode)
        #expect(try await watcher.line() == nil)
    }
}
