import LocationCodecs
import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

/// The replay pipeline in-process: parser, engine on fix time, events, carrier, logs.
@Suite(.timeLimit(.minutes(10))) struct ReplayerTests {
    static let walk = PackagePaths.fixture("walk.nmea")

    static let clients = DaemonFixtures.logger + """


        [client.rough]
        log = rough.jsonl
        precise = off
        reduced_interval = 60
        authorization = always
        updating = on
        """

    func fixes(_ path: String) throws -> [Fix] {
        var parser = NMEAParser()
        var fixes: [Fix] = []
        try FileIO.read(path).withUnsafeBytes { parser.feed($0) { fixes.append($0) } }
        parser.finish { fixes.append($0) }
        return fixes
    }

    @Test func everyUsableFixOfTheWalkIsLoggedAndTheSummaryCountsTheInput() throws {
        let dir = try ScratchDirectory("replay")
        let config = try daemonConfig(in: dir, clients: Self.clients)
        let summary = try Replayer.run(Replayer.Options(input: Self.walk, config: config))
        let expected = try fixes(Self.walk).filter(\.isUsable)
        let records = try logRecords(dir.file("log/logger.jsonl"))
        #expect(records.map(\.time) == expected.map(\.time))
        #expect(summary.statistics.sentences == 1800)
        #expect(summary.statistics.epochs == 360)
        #expect(summary.clients.map(\.name) == ["logger", "rough"])
        #expect(summary.clients.first?.delivered == expected.count)
        #expect(summary.clients.first?.log == dir.file("log/logger.jsonl"))
        #expect(summary.firstFixTime == expected.first?.time)
        #expect(summary.lastFixTime == expected.last?.time)
        #expect(summary.text.contains("epochs: 360, usable fixes 360"))
        // Approximate: one fix a minute, obfuscated.
        let rough = try logRecords(dir.file("log/rough.jsonl"))
        #expect(rough.count == 6)
        #expect(rough.allSatisfy { $0.accuracy == .reduced && $0.speed == nil })
    }

    @Test func eventsApplyBeforeTheFirstFixAtOrAfterTheirTimeAndLateOnesAtTheEnd() throws {
        let dir = try ScratchDirectory("replay")
        let config = try daemonConfig(in: dir, clients: Self.clients)
        let events = try ReplayEvents.parse(
            """
            {"at":"2026-03-14T09:31:00.500Z","cmd":"stop","client":"logger"}
            {"at":"2026-03-14T09:32:00Z","cmd":"start","client":"logger"}
            {"at":"2027-01-01T00:00:00Z","cmd":"authorize","client":"logger","status":"never"}
            {"at":"2027-01-01T00:00:00Z","cmd":"answer","client":"logger","answer":"deny"}
            """)
        let summary = try Replayer.run(Replayer.Options(input: Self.walk, config: config, events: events))
        #expect(summary.eventsApplied == 3)
        #expect(summary.eventsRefused == 1)
        let times = try logRecords(dir.file("log/logger.jsonl")).map(\.time)
        let stop = try #require(UTCTime.parse("2026-03-14T09:31:00.500Z"))
        let start = try #require(UTCTime.parse("2026-03-14T09:32:00Z"))
        // The fix at 09:31:00 came before the stop; the one at 09:31:01 is the first after it.
        #expect(times.contains(stop - 0.5))
        #expect(!times.contains { $0 > stop && $0 < start })
        #expect(times.contains(start))
        #expect(summary.tally.errors[.denied] == 1, "the late authorize never tells the updating client")
    }

    @Test func theSameInputsGiveByteIdenticalLogsEvenForReducedClients() throws {
        var outputs: [[UInt8]] = []
        for _ in 0..<2 {
            let dir = try ScratchDirectory("replay")
            let config = try daemonConfig(in: dir, clients: Self.clients)
            _ = try Replayer.run(Replayer.Options(input: Self.walk, config: config))
            outputs.append(try dir.read("log/logger.jsonl") + dir.read("log/rough.jsonl"))
        }
        #expect(outputs[0] == outputs[1])
        #expect(!outputs[0].isEmpty)
    }

    /// Epochs of the same time go to the engine in the order the files were given, so with the poor receiver
    /// named first its first epoch is the only one it gives while the good one reports (as the first TPV to
    /// arrive live), and the same command line gives the same log.
    @Test func thePoorReceiverNamedFirstGivesOnlyTheFirstEpochAndTheLogRepeats() throws {
        let good = PackagePaths.path("fixtures/receivers/good.nmea")
        let poor = PackagePaths.path("fixtures/receivers/poor.nmea")
        let goodEnd = 1_773_480_619.0
        var outputs: [[UInt8]] = []
        for _ in 0..<2 {
            let dir = try ScratchDirectory("replay")
            let config = try daemonConfig(in: dir, clients: Self.clients)
            let summary = try Replayer.run(Replayer.Options(inputs: [poor, good], config: config))
            #expect(summary.statistics.epochs == 60)
            #expect(summary.text.hasPrefix("replayed \(poor), \(good):"))
            let records = try logRecords(dir.file("log/logger.jsonl"))
            #expect(records.allSatisfy { $0.device == good || $0.device == poor })
            for (a, b) in zip(records, records.dropFirst()) { #expect(a.time < b.time) }
            let whileBoth = records.filter { $0.time <= goodEnd }
            #expect(whileBoth.filter { $0.device == poor }.map(\.time) == whileBoth.prefix(1).map(\.time))
            #expect(whileBoth.dropFirst().allSatisfy { $0.device == good } && whileBoth.count > 10)
            #expect(records.last?.device == poor)
            outputs.append(try dir.read("log/logger.jsonl"))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func resetAndAnApproximateAnswerReplayByteForByte() throws {
        let events = try ReplayEvents.parse(
            """
            {"at":"2026-03-14T09:31:00Z","cmd":"authorize","client":"logger","status":"ask"}
            {"at":"2026-03-14T09:31:00Z","cmd":"request","client":"logger","kind":"while-using"}
            {"at":"2026-03-14T09:31:10Z","cmd":"answer","client":"logger","answer":"allow-while-using","precise":false}
            {"at":"2026-03-14T09:33:00Z","cmd":"reset","client":"logger"}
            """)
        var outputs: [[UInt8]] = []
        for _ in 0..<2 {
            let dir = try ScratchDirectory("replay")
            let config = try daemonConfig(in: dir, clients: Self.clients)
            let summary = try Replayer.run(Replayer.Options(input: Self.walk, config: config, events: events))
            #expect(summary.eventsApplied == 4)
            let records = try logRecords(dir.file("log/logger.jsonl"))
            let answered = try #require(UTCTime.parse("2026-03-14T09:31:10Z"))
            let reset = try #require(UTCTime.parse("2026-03-14T09:33:00Z"))
            // Approximate from the answer, one coarse fix in the interval; precise again from the reset.
            let between = records.filter { $0.time >= answered && $0.time < reset }
            #expect(between.count == 1 && between.allSatisfy { $0.accuracy == .reduced })
            #expect(records.filter { $0.time >= reset }.allSatisfy { $0.accuracy == .full })
            #expect(records.contains { $0.time >= reset })
            outputs.append(try dir.read("log/logger.jsonl"))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func aSavedStateBringsItsOwnSecretAndPermissions() throws {
        let dir = try ScratchDirectory("replay")
        let config = try daemonConfig(in: dir, clients: Self.clients)
        var engine = Engine(settings: config.engineSettings, saved: nil, seed: 99)
        _ = engine.handle(.authorize(client: "logger", status: .never), now: 0)
        let saved = engine.savedState
        let summary = try Replayer.run(
            Replayer.Options(input: Self.walk, config: config, logDirectory: dir.file("a"), saved: saved))
        #expect(summary.clients.first?.delivered == 0, "the saved never holds")
        let other = try Replayer.run(Replayer.Options(input: Self.walk, config: config, logDirectory: dir.file("b")))
        #expect(other.clients.first?.delivered == 360)
        // The approximate positions come from the state's secret: moved by a whole grid
        // cell (4 σ = 2000 m east), every reduced fix moves; the same state, the same cells.
        var moved = saved
        let i = try #require(moved.clients.firstIndex { $0.name == "rough" })
        moved.clients[i].reduced.offsetEast += 4
        _ = try Replayer.run(Replayer.Options(input: Self.walk, config: config, logDirectory: dir.file("c"), saved: moved))
        _ = try Replayer.run(Replayer.Options(input: Self.walk, config: config, logDirectory: dir.file("d"), saved: saved))
        let a = try logRecords(dir.file("a/rough.jsonl")), c = try logRecords(dir.file("c/rough.jsonl"))
        #expect(a.count == 6 && c.count == 6)
        #expect(zip(a, c).allSatisfy { $0.longitude != $1.longitude })
        #expect(try dir.read("a/rough.jsonl") == (try dir.read("d/rough.jsonl")))
    }

    @Test func aDamagedRecordingIsCountedNotFatal() throws {
        let dir = try ScratchDirectory("replay")
        let config = try daemonConfig(in: dir)
        let summary = try Replayer.run(
            Replayer.Options(input: PackagePaths.fixture("corrupted.nmea"), config: config))
        #expect(summary.statistics.badChecksums > 0)
        #expect(summary.statistics.malformed > 0)
        #expect(summary.clients.first?.delivered == summary.statistics.usableFixes)
        #expect(summary.text.contains("bad checksums \(summary.statistics.badChecksums)"))
    }

    @Test func aMissingInputIsRefusedWithItsPath() throws {
        let dir = try ScratchDirectory("replay")
        #expect {
            _ = try Replayer.run(Replayer.Options(input: dir.file("nope.nmea"), config: try daemonConfig(in: dir)))
        } throws: { error in
            "\(error)" == "cannot read the input: open \(dir.file("nope.nmea")): No such file or directory"
        }
    }
}
