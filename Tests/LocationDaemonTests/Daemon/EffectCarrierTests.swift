import LocationCore
import LocationProtocol
import LocationValues
@testable import LocationDaemon
import Testing
import TestSupport

/// The one code path that carries out effects for `run` and `replay`.
@Suite(.timeLimit(.minutes(10))) struct EffectCarrierTests {
    func carrier(_ dir: ScratchDirectory, clients: String = DaemonFixtures.logger) throws -> EffectCarrier {
        EffectCarrier(logs: try ClientLogs(config: try daemonConfig(in: dir, clients: clients)))
    }

    @Test func deliveriesBecomeLogLinesAndFacesGetEventsInOrderWhenAnyoneWatches() throws {
        let dir = try ScratchDirectory("carrier")
        let watchers = WatcherList()
        let carrier = EffectCarrier(logs: try ClientLogs(config: try daemonConfig(in: dir)), faces: [watchers])
        #expect(carrier.faces.map(\.reportSinks) == [[.log], [.watch]])
        let fix = walkFix(3)
        let authorization = ClientAuthorization(client: "logger", status: .never, stored: .never)
        carrier.carry([.event(.authorization(authorization)), .deliver(Delivery(client: "logger", fix: fix, accuracy: .full))], eventTime: 5)
        let sink = RecordingSink()
        _ = watchers.add(client: nil, sink: sink, peer: rootPeer)
        watchers.services = true
        carrier.carry([.event(.source(.fix)), .deliver(Delivery(client: "logger", fix: walkFix(4), accuracy: .full))], eventTime: 6)
        let events = sink.values
        #expect(events.map { $0["event"]?.stringValue } == ["source", "location"], "\(sink.texts)")
        #expect(events.first?["time"]?.stringValue == UTCTime.format(6))
        #expect(events.last?["time"]?.stringValue == walkFix(4).time.map { UTCTime.format($0) })
        carrier.carry([.persist], eventTime: 7)
        #expect(sink.values.count == 2)
        carrier.logs.closeAll()
        let records = try logRecords(dir.file("log/logger.jsonl"))
        #expect(records.map(\.time) == [walkFix(3).time, walkFix(4).time])
        #expect(records.first.map { LogRecord(delivery: Delivery(client: "logger", fix: fix, accuracy: .full)) == $0 } == true)
        #expect(carrier.tally.delivered["logger"] == 2)
        #expect(carrier.tally.authorizationChanges == 1)
    }

    /// #48 item 6: a reduced position delivered again within its interval (a `locate`, a fresh
    /// `start`) reaches the watchers but is not written to the log a second time.
    @Test func aReducedPositionDeliveredAgainIsWatchedButLoggedOnce() throws {
        let dir = try ScratchDirectory("carrier")
        let watchers = WatcherList()
        let carrier = EffectCarrier(logs: try ClientLogs(config: try daemonConfig(in: dir)), faces: [watchers])
        let sink = RecordingSink()
        _ = watchers.add(client: nil, sink: sink, peer: rootPeer)
        watchers.services = true
        let fix = walkFix(3)
        carrier.carry([.deliver(Delivery(client: "logger", fix: fix, accuracy: .reduced))], eventTime: 3)
        carrier.carry([.deliver(Delivery(client: "logger", fix: fix, accuracy: .reduced, again: true))], eventTime: 4)
        #expect(sink.values.map { $0["event"]?.stringValue } == ["location", "location"], "\(sink.texts)")
        carrier.logs.closeAll()
        #expect(try logRecords(dir.file("log/logger.jsonl")).map(\.time) == [fix.time])
        #expect(carrier.tally.delivered["logger"] == 2)
    }

    @Test func persistIsAFlagThatIsTakenOnce() throws {
        let dir = try ScratchDirectory("carrier")
        let carrier = try carrier(dir)
        #expect(!carrier.takePersistRequest())
        carrier.carry([.persist], eventTime: nil)
        #expect(carrier.takePersistRequest())
        #expect(!carrier.takePersistRequest())
    }

    @Test func clientErrorsAreCountedAndAClientWithoutALogIsFine() throws {
        let dir = try ScratchDirectory("carrier")
        let carrier = try carrier(dir, clients: "[client.quiet]\nauthorization = always\n")
        carrier.carry(
            [
                .event(.error(client: "quiet", code: .locationUnknown, message: "no fix")),
                .event(.error(client: "quiet", code: .locationUnknown, message: "no fix")),
                .deliver(Delivery(client: "quiet", fix: walkFix(0), accuracy: .full)),
            ], eventTime: 1)
        #expect(carrier.tally.errors[.locationUnknown] == 2)
        #expect(carrier.tally.delivered["quiet"] == 1)
        #expect(carrier.logs.path(of: "quiet") == nil)
    }

    @Test func reconfiguredLogsFollowNewPathsAndCloseRemovedOnes() throws {
        let dir = try ScratchDirectory("carrier")
        let logs = try ClientLogs(config: try daemonConfig(in: dir))
        logs.append(Array("{\"a\":1}\n".utf8), client: "logger")
        let moved = try daemonConfig(
            in: dir, clients: "[client.other]\nlog = sub/other.jsonl\n", fsync: "interval")
        logs.reconfigure(moved)
        #expect(logs.clients == ["other"])
        #expect(logs.path(of: "logger") == nil)
        #expect(logs.path(of: "other") == dir.file("log/sub/other.jsonl"))
        #expect(logs.fsyncPolicy == .interval)
        #expect(!logs.append(Array("{\"a\":2}\n".utf8), client: "logger"))
        #expect(logs.append(Array("{\"a\":3}\n".utf8), client: "other"))
        logs.closeAll()
        #expect(try dir.text("log/logger.jsonl") == "{\"a\":1}\n")
        #expect(try dir.text("log/sub/other.jsonl") == "{\"a\":3}\n")
    }
}
