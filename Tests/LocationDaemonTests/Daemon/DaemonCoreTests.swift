import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem
import LocationDaemon
import Testing
import TestSupport

/// The daemon core against real files: logs, state, watchers, reloads.
@Suite(.timeLimit(.minutes(10))) struct DaemonCoreTests {
    @Test func deliveredFixesBecomeWholeLogLinesInOrder() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(in: dir)
        let clock = ManualClock()
        let core = try DaemonCore(config: config, seed: 1, clock: clock.clock)
        core.ingest(.state(.connected, detail: "connected to gpsd"))
        for i in 0..<20 {
            clock.advance(1)
            core.ingest(.fix(walkFix(i, metres: Double(i))))
        }
        core.shutdown()
        let records = try logRecords(dir.file("log/logger.jsonl"))
        #expect(records.map(\.time) == (0..<20).map { walkFix($0).time ?? 0 })
        #expect(records.allSatisfy { $0.client == "logger" && $0.accuracy == .full && $0.mode == .threeD })
        #expect(core.tally.delivered["logger"] == 20)
        #expect(core.fixesSeen == 20)
    }

    @Test func aCorruptStateFileIsSetAsideAndStartUpContinuesFromTheConfig() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(in: dir, clients: DaemonFixtures.askingLogger)
        try FileSystem.makeDirectories(dir.file("state"), mode: 0o750)
        try dir.write("state/state.json", "{\"version\":1,\"services\":tru")
        let core = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        let entries = try FileIO.list(dir.file("state"))
        #expect(entries.contains("state.json"))
        #expect(entries.contains { $0.hasPrefix("state.json.corrupt-") })
        #expect(core.savedState.client("logger")?.status == .ask)
        // The fresh state file written at start decodes.
        let saved = try StateCodec.decode(try dir.read("state/state.json"))
        #expect(saved == (core.savedState))
    }

    @Test func authorizationSurvivesARestartThroughTheStateFile() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(in: dir, clients: DaemonFixtures.askingLogger)
        let first = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        let reply = first.handle(request(.authorize(client: "logger", status: .always)), from: rootPeer)
        #expect(reply.isOK)
        first.shutdown()
        let second = try DaemonCore(config: config, seed: 2, clock: ManualClock().clock)
        let status = second.statusReport()
        #expect(status.status.clients.first?.authorization.stored == .always)
    }

    @Test func stateSavesAreCoalescedWithinASecondAndAlwaysWrittenAtShutdown() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(in: dir, clients: DaemonFixtures.askingLogger)
        let clock = ManualClock()
        let core = try DaemonCore(config: config, seed: 1, clock: clock.clock)
        let atStart = core.stateSaves
        #expect(atStart == 1, "a first start writes the state at once")
        clock.advance(5)
        _ = core.handle(request(.authorize(client: "logger", status: .always)), from: rootPeer)
        #expect(core.stateSaves == 2, "the first change is saved at once")
        clock.advance(0.1)
        _ = core.handle(request(.authorize(client: "logger", status: .never)), from: rootPeer)
        _ = core.handle(request(.authorize(client: "logger", status: .whileUsing)), from: rootPeer)
        #expect(core.stateSaves == 2, "changes within a second wait for the tick")
        clock.advance(0.5)
        core.tick()
        #expect(core.stateSaves == 2)
        clock.advance(0.5)
        core.tick()
        #expect(core.stateSaves == 3)
        #expect(try StateCodec.decode(try dir.read("state/state.json")).client("logger")?.status == .whileUsing)
        clock.advance(0.1)
        _ = core.handle(request(.authorize(client: "logger", status: .never)), from: rootPeer)
        core.shutdown()
        #expect(try StateCodec.decode(try dir.read("state/state.json")).client("logger")?.status == .never)
    }

    @Test func helloNamesEveryClientWithItsAbsoluteLogPath() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(
            in: dir, clients: DaemonFixtures.logger + "\n\n[client.quiet]\nauthorization = never\n")
        let core = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        let reply = core.handle(ControlRequest(id: "h", .hello), from: rootPeer)
        let hello = try reply.hello()
        #expect(hello.protocolVersion == ControlProtocol.version)
        #expect(hello.version == LocationdVersion.string)
        #expect(hello.clients == [.init(name: "logger", log: dir.file("log/logger.jsonl")), .init(name: "quiet", log: nil)])
    }

    @Test func statusCarriesTheSourceNameAndRefusesAnUnknownClient() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(in: dir)
        let clock = ManualClock()
        let core = try DaemonCore(config: config, seed: 1, clock: clock.clock)
        core.ingest(.fix(walkFix(0)))
        clock.advance(2)
        let report = try core.handle(ControlRequest(.status(client: "logger")), from: rootPeer).statusReport()
        #expect(report.sourceName == "gpsd 127.0.0.1:2947")
        #expect(report.time == 1002 + ManualClock.wallOffset)
        #expect(report.status.source == .fix)
        #expect(report.status.lastFixAge == 2)
        #expect(report.status.clients.map(\.authorization.client) == ["logger"])
        let unknown = core.handle(ControlRequest(id: 3, .status(client: "loger")), from: rootPeer)
        #expect(unknown.error?.code == "unknown-client")
        #expect(unknown.error?.message.contains("did you mean \"logger\"") == true)
    }

    @Test func aCommandIsAppliedAndItsOutcomeReplied() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(in: dir, clients: DaemonFixtures.askingLogger)
        let core = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        let opened = core.handle(request(.request(client: "logger", kind: .whileUsing), id: 7), from: rootPeer)
        #expect(opened.id == 7)
        #expect(try opened.commandOutcome().prompt?.kind == .whileUsing)
        let prompts = try core.handle(ControlRequest(.prompts), from: rootPeer).prompts()
        #expect(prompts.map(\.client) == ["logger"])
        let refused = core.handle(request(.answer(client: "logger", answer: .changeToAlways)), from: rootPeer)
        #expect(refused.error?.code == "invalid-answer")
        let answered = core.handle(request(.answer(client: "logger", answer: .allowOnce)), from: rootPeer)
        #expect(try answered.commandOutcome().changed)
        #expect(core.statusReport().status.clients.first?.authorization.once == true)
    }

    @Test func aWatcherGetsTheReplyTheSnapshotThenEventsAndLocationsInOrder() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(in: dir, clients: DaemonFixtures.askingLogger)
        let clock = ManualClock()
        let core = try DaemonCore(config: config, seed: 1, clock: clock.clock)
        let sink = RecordingSink()
        let id = core.watch(ControlRequest(id: 5, .watch(client: nil)), client: nil, from: rootPeer, sink: sink)
        #expect(id != nil)
        _ = core.handle(request(.authorize(client: "logger", status: .always)), from: rootPeer)
        clock.advance(1)
        core.ingest(.fix(walkFix(1)))
        let values = sink.values
        #expect(values.count == 6)
        #expect(values.first?["id"] == 5 && values.first?["watching"] == "all")
        // The snapshot (source, authorization), the command's event, then the fix: the
        // source state it implies, and the location.
        #expect(
            values.dropFirst().map { $0["event"]?.stringValue }
                == ["source", "authorization", "authorization", "source", "location"])
        #expect(values[2]["status"] == "ask")
        #expect(values[3]["status"] == "always")
        #expect(values[4]["state"] == "fix")
        #expect(values[5]["client"] == "logger")
        #expect(values[5]["lat"]?.numberValue == 35.681199)
        // Exactly the log line's members after "event".
        let logLine = String(decoding: try dir.read("log/logger.jsonl"), as: UTF8.self)
        #expect(sink.texts[5] == "{\"event\":\"location\"," + logLine.dropFirst())
    }

    @Test func aWatcherOfOneClientSeesOnlyThatClientAndSourceEvents() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(
            in: dir, clients: DaemonFixtures.askingLogger + "\n\n[client.other]\nauthorization = ask\n")
        let core = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        let sink = RecordingSink()
        _ = core.watch(ControlRequest(.watch(client: "other")), client: "other", from: rootPeer, sink: sink)
        _ = core.handle(request(.authorize(client: "logger", status: .never)), from: rootPeer)
        _ = core.handle(request(.authorize(client: "other", status: .never)), from: rootPeer)
        core.ingest(.state(.noFix, detail: "no fix"))
        let events = sink.values.dropFirst()
        #expect(events.map { $0["event"]?.stringValue } == ["source", "authorization", "authorization", "source"])
        #expect(events.compactMap { $0["client"]?.stringValue } == ["other", "other"])
    }

    @Test func watchingAnUnknownClientIsRefusedThroughTheSink() async throws {
        let dir = try ScratchDirectory("core")
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        let sink = RecordingSink()
        let id = core.watch(ControlRequest(id: 2, .watch(client: "nobody")), client: "nobody", from: rootPeer, sink: sink)
        #expect(id == nil)
        #expect(sink.values.count == 1)
        #expect(sink.values.first?["ok"] == false)
        #expect(sink.values.first?["error"]?["code"] == "unknown-client")
        #expect(core.watcherCount == 0)
    }

    @Test func aWatcherThatFallsBehindIsDroppedAndOthersCarryOn() async throws {
        let dir = try ScratchDirectory("core")
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        let slow = RecordingSink(capacity: 4)
        let fast = RecordingSink()
        _ = core.watch(ControlRequest(.watch(client: nil)), client: nil, from: rootPeer, sink: slow)
        _ = core.watch(ControlRequest(.watch(client: nil)), client: nil, from: rootPeer, sink: fast)
        #expect(core.watcherCount == 2)
        for i in 0..<5 { core.ingest(.fix(walkFix(i, metres: Double(i) * 10))) }
        #expect(core.watcherCount == 1)
        #expect(fast.values.filter { $0["event"] == "location" }.count == 5)
        #expect(slow.values.count == 4)
    }

    @Test func unwatchStopsEvents() async throws {
        let dir = try ScratchDirectory("core")
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        let sink = RecordingSink()
        let id = try #require(core.watch(ControlRequest(.watch(client: nil)), client: nil, from: rootPeer, sink: sink))
        let before = sink.values.count
        core.unwatch(id)
        core.ingest(.fix(walkFix(0)))
        #expect(sink.values.count == before)
    }

    @Test func reloadTakesNewSettingsKeepsStateAndNamesKeysThatNeedARestart() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(in: dir)
        let core = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        _ = core.handle(request(.authorize(client: "logger", status: .whileUsing)), from: rootPeer)
        var changed = try daemonConfig(
            in: dir, clients: DaemonFixtures.logger.replacingOccurrences(of: "log = logger.jsonl", with: "log = renamed.jsonl")
                + "\n\n[client.extra]\nlog = extra.jsonl\n")
        changed.socket = dir.file("other.sock")
        changed.source = .gpsd(host: "127.0.0.1", port: 2948)
        let restart = core.reload(changed)
        #expect(restart == ["socket", "[source]"])
        #expect(core.config.socket == dir.file("control.sock"))
        #expect(core.config.source == .gpsd(host: "127.0.0.1", port: 2947))
        #expect(core.statusReport().status.clients.map(\.authorization.client) == ["logger", "extra"])
        #expect(core.statusReport().status.clients.first?.authorization.stored == .whileUsing)
        #expect(core.logPaths == ["logger": dir.file("log/renamed.jsonl"), "extra": dir.file("log/extra.jsonl")])
        core.ingest(.fix(walkFix(0)))
        core.shutdown()
        #expect(try logRecords(dir.file("log/renamed.jsonl")).count == 1)
    }

    @Test func reopenAfterARenameWritesANewFileAndLeavesTheOldOneWhole() async throws {
        let dir = try ScratchDirectory("core")
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        core.ingest(.fix(walkFix(0)))
        #expect(rename(dir.file("log/logger.jsonl"), dir.file("log/logger.jsonl.1")) == 0)
        core.ingest(.fix(walkFix(1)))
        core.reopenLogs()
        core.ingest(.fix(walkFix(2)))
        core.shutdown()
        #expect(try logRecords(dir.file("log/logger.jsonl.1")).map(\.time) == [walkFix(0).time, walkFix(1).time])
        #expect(try logRecords(dir.file("log/logger.jsonl")).map(\.time) == [walkFix(2).time])
    }

    @Test func aTornLogTailIsRepairedAtStartAndNewLinesFollowWholeOnes() async throws {
        let dir = try ScratchDirectory("core")
        let config = try daemonConfig(in: dir)
        let first = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        first.ingest(.fix(walkFix(0)))
        first.shutdown()
        let whole = try dir.read("log/logger.jsonl")
        try dir.write("log/logger.jsonl", whole + Array("{\"time\":\"2026-03-15T00:00:01.000Z\",\"lat\":35.6".utf8))
        let second = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        second.ingest(.fix(walkFix(5)))
        second.shutdown()
        #expect(try logRecords(dir.file("log/logger.jsonl")).map(\.time) == [walkFix(0).time, walkFix(5).time])
    }

    @Test func aLogThatCannotBeOpenedRefusesStartUpNamingTheClient() throws {
        let dir = try ScratchDirectory("core")
        try dir.write("log", "a file where the log directory should be")
        let config = try daemonConfig(in: dir)
        #expect {
            _ = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        } throws: { error in
            "\(error)".contains("cannot open the log of client logger")
        }
    }

    @Test func statusLineSaysWhatIsLoggedAndHowTheSourceIs() async throws {
        let dir = try ScratchDirectory("core")
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        #expect(core.statusLine() == "1 client waiting for a fix; waiting for gpsd 127.0.0.1:2947")
        core.ingest(.state(.connected, detail: "connected"))
        core.ingest(.fix(walkFix(0)))
        #expect(core.statusLine() == "logging 3D fixes for 1 client; gpsd 127.0.0.1:2947 connected")
        _ = core.handle(request(.authorize(client: "logger", status: .never)), from: rootPeer)
        #expect(core.statusLine().hasPrefix("no client receiving fixes: logger the user denied location"))
    }

    @Test func inputsAfterShutdownAreIgnoredAndCommandsRefused() async throws {
        let dir = try ScratchDirectory("core")
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        core.shutdown()
        core.ingest(.fix(walkFix(0)))
        #expect(core.fixesSeen == 0)
        let reply = core.handle(request(.stop(client: "logger")), from: rootPeer)
        #expect(reply.error?.code == "shutting-down")
    }
}
