import LocationCore
import LocationValues
import LocationDaemon
import Testing
import TestSupport

/// `heartbeat = SECONDS`: a board standing still, or a receiver without a fix, is told from a
/// dead one by a record in the log saying why nothing was logged.
@Suite(.timeLimit(.minutes(10))) struct HeartbeatTests {
    static let clients = DaemonFixtures.logger.replacingOccurrences(
        of: "distance_filter = none", with: "distance_filter = 5\nheartbeat = 10")

    static func heartbeats(_ path: String) throws -> [JSONValue] {
        String(decoding: try FileIO.read(path), as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix(#"{"heartbeat":"#) }
            .map { try! JSONValue.parse(Array($0.utf8)) }
    }

    @Test func heldBackFixesThenNoFixAreSaidAndNoPositionIsWritten() throws {
        let dir = try ScratchDirectory("heartbeat")
        let clock = ManualClock()
        let core = try DaemonCore(config: try daemonConfig(in: dir, clients: Self.clients), seed: 1, clock: clock.clock)
        let log = dir.file("log/logger.jsonl")
        core.ingest(.state(.fix, detail: "fix"))
        core.ingest(.fix(walkFix(0)))
        clock.advance(10)
        core.tick()
        #expect(try Self.heartbeats(log).isEmpty, "a fix was logged in the interval")
        // Standing still: five fixes, each held back by the 5 m filter.
        for i in 1...5 { core.ingest(.fix(walkFix(i, metres: 1))) }
        clock.advance(10)
        core.tick()
        var beats = try Self.heartbeats(log)
        #expect(beats.count == 1)
        #expect(beats.first?["why"]?.stringValue == "distance-filter")
        #expect(beats.first?["heldBack"]?.intValue == 5)
        #expect(beats.first?["receiver"]?.stringValue == "fix")
        #expect(beats.first?["lat"] == nil && beats.first?["lon"] == nil)
        // The receiver loses its fix.
        core.ingest(.state(.noFix, detail: "no fix"))
        clock.advance(10)
        core.tick()
        beats = try Self.heartbeats(log)
        #expect(beats.count == 2)
        #expect(beats.last?["why"]?.stringValue == "no-fix")
        #expect(beats.last?["heldBack"]?.intValue == 0)
        // Not updating: no record.
        _ = core.handle(request(.stop(client: "logger")), from: rootPeer)
        clock.advance(10)
        core.tick()
        #expect(try Self.heartbeats(log).count == 2)
        core.shutdown()
        #expect(try logRecords(log).count == 1, "log readers skip heartbeats; the one fix logged is the only record")
    }
}
