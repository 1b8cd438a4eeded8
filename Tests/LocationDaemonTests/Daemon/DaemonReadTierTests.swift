import LocationCore
import LocationProtocol
import LocationDaemon
import Testing
import TestSupport

/// The read tiers (docs/protocol.md § Read tiers) through the daemon core's
/// handler: who sees a coordinate in `status` and `watch`.
@Suite(.timeLimit(.minutes(10))) struct DaemonReadTierTests {
    /// A peer outside `socket_group`, not root.
    static let reader = ControlPeer(pid: 7, uid: 65534, gid: 65534, mayChange: false)

    /// logger gets full accuracy; rough reduced; quiet never.
    static let clients = DaemonFixtures.logger + """


        [client.rough]
        log = rough.jsonl
        distance_filter = none
        desired_accuracy = best
        authorization = always
        precise = off
        updating = on
        in_use = on

        [client.quiet]
        log = quiet.jsonl
        authorization = never
        updating = on
        in_use = on
        """

    /// The raw fix's latitude and longitude as the log and status would print them, in part.
    static let rawDigits = ["35.6811", "139.767"]

    static func core(_ dir: ScratchDirectory, clock: ManualClock) throws -> DaemonCore {
        try DaemonCore(config: try daemonConfig(in: dir, clients: clients), seed: 1, clock: clock.clock)
    }

    static func statusLine(_ core: DaemonCore, peer: ControlPeer) -> String {
        core.handle(ControlRequest(.status(client: nil)), from: peer).line()
    }

    static func hasCoordinates(_ text: String) -> Bool {
        text.contains("\"lat\"") || text.contains("\"lon\"") || rawDigits.contains { text.contains($0) }
    }

    @Test func anUnprivilegedPeersStatusHasTheFixQualityButNoCoordinate() async throws {
        let dir = try ScratchDirectory("tier")
        let clock = ManualClock()
        let core = try Self.core(dir, clock: clock)
        core.ingest(.fix(walkFix(0)))
        clock.advance(2)
        let line = Self.statusLine(core, peer: Self.reader)
        #expect(!Self.hasCoordinates(line), "\(line)")
        #expect(!line.contains("\"alt\"") && !line.contains("\"speed\"") && !line.contains("\"course\""))
        let report = try core.handle(ControlRequest(.status(client: "logger")), from: Self.reader).statusReport()
        let fix = try #require(report.status.lastFix)
        #expect(fix.mode == .threeD && fix.horizontalError == 3.5 && fix.verticalError == 6 && fix.satellitesUsed == 9)
        #expect(fix.time == walkFix(0).time)
        #expect(!fix.latitude.isFinite && !fix.longitude.isFinite && fix.altitude == nil)
        #expect(report.status.lastFixAge == 2)
        #expect(report.status.clients.first?.deliveredCount == 1)
        // Root sees the position.
        let rootLine = Self.statusLine(core, peer: rootPeer)
        #expect(rootLine.contains("\"lat\":35.681199"), "\(rootLine)")
    }

    @Test func withLocationServicesOffNotEvenRootsStatusHasACoordinate() async throws {
        let dir = try ScratchDirectory("tier")
        let clock = ManualClock()
        let core = try Self.core(dir, clock: clock)
        core.ingest(.fix(walkFix(0)))
        #expect(core.handle(request(.services(on: false)), from: rootPeer).isOK)
        clock.advance(1)
        core.ingest(.fix(walkFix(1)))
        for peer in [rootPeer, Self.reader] {
            let line = Self.statusLine(core, peer: peer)
            #expect(!Self.hasCoordinates(line), "\(peer): \(line)")
            #expect(line.contains("\"mode\":3"))
        }
        #expect(core.handle(request(.services(on: true)), from: rootPeer).isOK)
        #expect(Self.hasCoordinates(Self.statusLine(core, peer: rootPeer)))
    }

    @Test func anUnprivilegedWatcherIsToldLocationsAreWithheldAndGetsEveryOtherEvent() async throws {
        let dir = try ScratchDirectory("tier")
        let clock = ManualClock()
        let core = try Self.core(dir, clock: clock)
        let reader = RecordingSink()
        let root = RecordingSink()
        _ = core.watch(ControlRequest(id: 1, .watch(client: nil)), client: nil, from: Self.reader, sink: reader)
        _ = core.watch(ControlRequest(id: 1, .watch(client: nil)), client: nil, from: rootPeer, sink: root)
        for i in 0..<5 {
            clock.advance(1)
            core.ingest(.fix(walkFix(i, metres: Double(i) * 10)))
        }
        _ = core.handle(request(.authorize(client: "quiet", status: .always)), from: rootPeer)
        let reply = try #require(reader.values.first)
        #expect(reply["withheld"]?["code"] == "not-authorized")
        #expect(reply["withheld"]?["events"] == .array(["location"]))
        #expect(root.values.first?["withheld"] == nil)
        let events = reader.values.dropFirst().compactMap { $0["event"]?.stringValue }
        #expect(!events.contains("location"))
        #expect(events.contains("authorization") && events.contains("source"))
        #expect(!reader.texts.contains { Self.hasCoordinates($0) })
        // The same events reach root, with the locations.
        let delivered = try logRecords(dir.file("log/logger.jsonl")).count + (try logRecords(dir.file("log/rough.jsonl")).count)
        #expect(delivered == 6, "5 full, 1 reduced (at most one per 15 minutes)")
        #expect(root.values.filter { $0["event"] == "location" }.count == delivered)
    }

    @Test func aWatchForOneClientCarriesOnlyItsOwnDeliveriesAtItsAccuracy() async throws {
        let dir = try ScratchDirectory("tier")
        let clock = ManualClock()
        let core = try Self.core(dir, clock: clock)
        let rough = RecordingSink()
        let quiet = RecordingSink()
        _ = core.watch(ControlRequest(.watch(client: "rough")), client: "rough", from: rootPeer, sink: rough)
        _ = core.watch(ControlRequest(.watch(client: "quiet")), client: "quiet", from: rootPeer, sink: quiet)
        for i in 0..<3 {
            clock.advance(1)
            core.ingest(.fix(walkFix(i, metres: Double(i) * 10)))
        }
        let locations = rough.values.filter { $0["event"] == "location" }
        #expect(!locations.isEmpty)
        #expect(locations.allSatisfy { $0["client"] == "rough" && $0["accuracy"] == "reduced" })
        // Never the receiver's own position: the reduced one is kilometres off the raw digits.
        #expect(!rough.texts.contains { text in Self.rawDigits.allSatisfy { text.contains($0) } })
        let roughLog = try logRecords(dir.file("log/rough.jsonl"))
        #expect(locations.map { $0["lat"]?.numberValue } == roughLog.map { $0.latitude })
        // A client at never: no location event at all.
        #expect(!quiet.values.contains { $0["event"] == "location" })
    }
}
