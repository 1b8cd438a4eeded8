#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
@testable import LocationDaemon
import Testing
import TestSupport

/// Connection limits, idle timeout, and memory that stays bounded under a flood.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ControlServerLimitsTests {
    @Test func connectionsBeyondTheLimitAreToldBusyAndClosed() async throws {
        let fixture = try ServerFixture(limits: ControlServer.Limits(maximumConnections: 4))
        let clients = try (0..<4).map { _ in try fixture.client() }
        for client in clients { #expect(try await client.request(.hello).isOK) }

        let extra = try fixture.client()
        let busy = try #require(try await extra.json())
        #expect(busy["ok"] == false && busy["error"]?["code"] == "busy")
        #expect(try await extra.line() == nil)
        #expect(await fixture.eventually { fixture.server.statistics.refusedBusy == 1 })

        // One goes; there is room again.
        _ = consume clients
        #expect(await fixture.eventually { fixture.server.statistics.connections == 0 })
        #expect(try await fixture.client().request(.hello).isOK)
    }

    @Test func idleConnectionsAreClosedButNotWhileTheirRequestIsInFlight() async throws {
        let fixture = try ServerFixture(limits: ControlServer.Limits(idleTimeout: 0.2))
        let waiting = try fixture.client()
        // A request the handler holds: the connection is waiting, not idle, however long it takes.
        try await waiting.send(ControlRequest(id: 1, .command(.start(client: FakeControlHandler.gatedClient))))
        #expect(await fixture.eventually { fixture.handler.requests.count == 1 })
        let idle = try fixture.client()
        #expect(try await idle.line() == nil, "the idle connection was closed")
        #expect(await fixture.eventually { fixture.server.statistics.idleClosed == 1 })
        fixture.handler.openGate()
        let reply = try #require(try await waiting.json())
        #expect(reply["id"] == 1 && reply["ok"] == true)
    }

    @Test func aPeerThatDoesNotReadItsRepliesStopsBeingReadAndHoldsUpNobody() async throws {
        let fixture = try ServerFixture(limits: ControlServer.Limits(replyBacklog: 16 << 10))
        let hog = try fixture.client()
        // 20 000 status requests (each reply ~1 KiB) and not one reply read: the
        // server stops reading this peer once its replies back up.
        let request = Array(ControlRequest(.status(client: nil)).line().utf8)
        let many = Array(Array(repeating: request, count: 20_000).joined())
        // Writing stalls (and times out) because the server stopped reading this peer.
        await #expect(throws: TestClient.Timeout.self) {
            try await hog.send(raw: many, timeout: 2)
        }
        // Others are answered meanwhile.
        for _ in 0..<5 { #expect(try await fixture.client().request(.hello).isOK) }
        let handled = fixture.handler.requests.count
        #expect(handled < 20_000, "the server stopped reading the peer")
        #expect(fixture.server.statistics.bufferedBytes < 1 << 20)
    }

    @Test func aFloodOfBadLinesAndWatchersLeavesMemoryBounded() async throws {
        let limits = ControlServer.Limits(watcherBacklog: 256 << 10)
        let fixture = try ServerFixture(limits: limits)
        // Warm up: one round of everything, so the allocator's arenas exist before measuring.
        #expect(try await fixture.client().request(.hello).isOK)
        let before = try #require(ProcFS.residentBytes())

        // 64 watchers, half of which never read.
        let watchers = try (0..<64).map { _ in try fixture.client() }
        for watcher in watchers { try await watcher.send(ControlRequest(.watch(client: nil))) }
        #expect(await fixture.eventually { fixture.handler.watcherCount == 64 })

        // 10 000 malformed lines from 4 peers, while 20 000 events (~4 MiB per watcher) go out.
        var generator = SplitMix(seed: 42)
        let senders = try (0..<4).map { _ in try fixture.client() }
        var maximumBuffered = 0
        for round in 0..<20 {
            for sender in senders {
                let lines = (0..<125).map { _ in RandomLines.line(&generator) + [0x0A] }
                try await sender.send(raw: Array(lines.joined()))
                for _ in 0..<125 { _ = try #require(try await sender.line()) }
            }
            for j in 0..<1000 {
                fixture.handler.broadcast(ControlWatchEvents.event(round * 1000 + j))
                // Seconds of CPU in all: let other tests' tasks have the shared pool now and then.
                if j % 50 == 49 { await Task.yield() }
            }
            for watcher in watchers.prefix(32) { _ = try watcher.available() }
            maximumBuffered = max(maximumBuffered, fixture.server.statistics.bufferedBytes)
        }
        let after = try #require(ProcFS.residentBytes())
        // Every watcher holds at most its backlog; 32 of them fall behind and are cut off.
        #expect(maximumBuffered <= 64 * (limits.watcherBacklog + 4096) + 4 * 200_000)
        #expect(await fixture.eventually { fixture.server.statistics.cutOff >= 1 })
        #expect(after - before < 96 << 20, "RSS grew by \((after - before) >> 20) MiB")
        #expect(try await fixture.client().request(.hello).isOK)
    }
}

/// Event lines for the flood.
enum ControlWatchEvents {
    static func event(_ i: Int) -> ControlEvent { ControlServerWatchTests.event(i) }
}
