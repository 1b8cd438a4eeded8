#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationValues
import LocationTools
@testable import LocationDaemon
import Testing
import TestSupport

/// The `locationctl` executable as a process, against a real control server
/// (with a fake daemon core behind it) and real files.
@Suite(.timeLimit(.minutes(10)), .enabled(if: Locationctl.isBuilt, "build locationctl first: swift build --build-tests"))
struct LocationctlTests {
    static func fixture(
        locate: @escaping @Sendable (String) -> LogRecord? = { _ in nil }, authorization: AuthorizationStatus = .ask,
        locateTakes: Duration = .milliseconds(100)
    ) throws -> ServerFixture {
        try ServerFixture("ctl", handler: {
            FakeControlHandler(logDirectory: $0, locateResult: locate, authorization: authorization, locateTakes: locateTakes)
        })
    }

    @Test func statusIsWrittenForAPerson() async throws {
        let fixture = try Self.fixture()
        let (status, output, _) = try await Locationctl.run(["--socket", fixture.path, "status"], in: fixture.directory)
        #expect(status == 0)
        #expect(output.contains("Location Services: on"))
        #expect(output.contains("logger: ask"))
        #expect(output.contains("→ run: locationctl authorize logger while-using"))
    }

    @Test func statusAsJSONIsTheStatusObject() async throws {
        let fixture = try Self.fixture()
        let (status, output, _) = try await Locationctl.run(["--json", "status", "logger", "--socket", fixture.path], in: fixture.directory)
        #expect(status == 0)
        let value = try JSONValue.parse(Array(output.utf8))
        #expect(value["services"] == true)
        #expect(value["clients"]?.arrayValue?.map { $0["client"] } == ["logger"])
    }

    @Test func aCommandIsSentAndItsOutcomePrinted() async throws {
        let fixture = try Self.fixture()
        let (status, output, _) = try await Locationctl.run(
            ["--socket", fixture.path, "authorize", "logger", "always"], in: fixture.directory)
        #expect(status == 0)
        #expect(output == "logger is now always\n")
        #expect(fixture.handler.authorization("logger").stored == .always)
    }

    @Test func theSocketCanComeFromTheEnvironment() async throws {
        let fixture = try Self.fixture()
        // The variable goes to the child alone: setenv here would race with
        // every other test reading this process's environment.
        let (status, output, _) = try await Locationctl.run(
            ["--json", "prompts"], in: fixture.directory,
            environment: .only([ControlProtocol.socketEnvironmentVariable: fixture.path]))
        #expect(status == 0)
        #expect(try JSONValue.parse(Array(output.utf8))["prompts"] == [])
    }

    @Test func aRefusalExitsWith1AndSaysWhatToDo() async throws {
        let fixture = try Self.fixture()
        let (status, output, errors) = try await Locationctl.run(
            ["--socket", fixture.path, "start", "loger"], in: fixture.directory)
        #expect(status == 1)
        #expect(output.isEmpty)
        #expect(errors.contains("no client named \"loger\""))
        #expect(errors.contains("did you mean \"logger\"?"))
        #expect(errors.contains("locationctl status"))
    }

    @Test func aRefusalAsJSONIsTheReplyAsSent() async throws {
        let fixture = try Self.fixture()
        let (status, output, _) = try await Locationctl.run(
            ["--socket", fixture.path, "--json", "stop", "nobody"], in: fixture.directory)
        #expect(status == 1)
        let reply = try JSONValue.parse(Array(output.utf8))
        #expect(reply["ok"] == false && reply["error"]?["code"] == "unknown-client")
    }

    @Test func aUsageErrorExitsWith2() async throws {
        let directory = try ScratchDirectory("ctl-usage")
        let (status, _, errors) = try await Locationctl.run(["authorize", "logger", "whileusing"], in: directory)
        #expect(status == 2)
        #expect(errors.contains("did you mean \"while-using\"?"))
        #expect(errors.contains("usage: locationctl"))
    }

    @Test(arguments: CtlUsage.commandNames)
    func everyCommandHasHelp(command: String) async throws {
        let directory = try ScratchDirectory("ctl-help")
        let (status, output, _) = try await Locationctl.run([command, "--help"], in: directory)
        #expect(status == 0)
        #expect(output.hasPrefix("usage: locationctl [--socket PATH] [--json] \(command)"))
    }

    @Test func noDaemonExitsWith3NamingTheSocketAndTheCause() async throws {
        let directory = try ScratchDirectory("ctl-none")
        let missing = directory.file("control.sock")
        let (status, _, errors) = try await Locationctl.run(["--socket", missing, "status"], in: directory)
        #expect(status == 3)
        #expect(errors.contains("cannot reach locationd at \(missing): no such socket"))
        #expect(errors.contains("systemctl start locationd"))

        // A socket file nobody listens on, as a killed daemon leaves it.
        try ControlServerSocketTests.leaveStaleSocket(at: missing)
        let (stale, _, staleErrors) = try await Locationctl.run(["--socket", missing, "status"], in: directory)
        #expect(stale == 3)
        #expect(staleErrors.contains("nothing is listening"))
    }

    @Test func watchPrintsEventsAsTheyHappenUntilInterrupted() async throws {
        let fixture = try Self.fixture()
        let child = try Locationctl.start(["--socket", fixture.path, "watch", "logger"], in: fixture.directory)
        // The header, then the state as the watch begins under a header of its own: the source and logger's authorization.
        #expect(await child.waitForLines(4))
        #expect(await fixture.eventually { fixture.handler.watcherCount == 1 })
        fixture.handler.broadcast(ControlServerWatchTests.event(4))
        fixture.handler.broadcast(ControlEvent(.error(client: "logger", code: .locationUnknown, message: "no fix for 5 s"), time: 1_773_489_609))
        #expect(await child.waitForLines(7))
        let lines = child.stdoutLines
        #expect(lines[0] == "watching logger (Ctrl-C to stop)")
        // #39: the opening state is no event: it is said to be the state, without times or arrows.
        #expect(lines[1].hasSuffix(" the state as watch begins:"))
        #expect(lines[2] == "  source fix")
        #expect(lines[3] == "  logger authorization ask, full accuracy")
        #expect(lines[4] == "events as they happen:")
        // The line starts with the system clock's time; the fix's own time is labelled at the end.
        #expect(lines[5].hasSuffix(" logger location 52.3765432,4.8954361 ±4.8 m alt 3.5 m full (fix time 2026-03-14 12:00:04 UTC)"))
        #expect(lines[6].hasSuffix("logger error location-unknown: no fix for 5 s"))
        child.signal(SIGINT)
        #expect(try await child.finish() == 128 + SIGINT)
        #expect(await fixture.eventually { fixture.handler.watcherCount == 0 })
    }

    @Test func watchAsJSONPrintsTheLinesAsSentAndEndsWhenTheDaemonStops() async throws {
        let fixture = try Self.fixture()
        let child = try Locationctl.start(["--socket", fixture.path, "--json", "watch"], in: fixture.directory)
        #expect(await child.waitForLines(4))  // reply, source, two clients
        fixture.server.stop()
        let status = try await child.finish()
        #expect(status == 3)
        let lines = child.stdoutLines
        #expect(try JSONValue.parse(Array(lines[0].utf8))["watching"] == "all")
        #expect(lines.dropFirst().allSatisfy { (try? JSONValue.parse(Array($0.utf8))) != nil })
        #expect(child.stderr.contains("locationd is stopping"))
    }

    @Test func locatePrintsTheDeliveredLocation() async throws {
        let fixture = try Self.fixture(
            locate: { client in ControlServerWatchTests.event(7, client: client).locationRecord }, authorization: .whileUsing)
        let (status, output, errors) = try await Locationctl.run(
            ["--socket", fixture.path, "locate", "logger", "--timeout", "5"], in: fixture.directory)
        #expect(status == 0, "\(errors)")
        // watch's line: the time it came (the system clock's), then the fix's own time labelled.
        #expect(output.hasSuffix(" logger location 52.3765432,4.8954391 ±4.8 m alt 3.5 m full (fix time 2026-03-14 12:00:07 UTC)\n"), "\(output)")
        #expect(output.split(separator: "\n").count == 1)
        // The status asked first says whether a position can come at all.
        let names = fixture.handler.requests.map(\.operation.name)
        #expect(names.filter { $0 != "status" } == ["watch", "locate"] && names.firstIndex(of: "status") == 1, "\(names)")
    }

    @Test func locateReportsLocationUnknown() async throws {
        let fixture = try Self.fixture(authorization: .whileUsing)
        let (status, output, errors) = try await Locationctl.run(
            ["--socket", fixture.path, "locate", "logger"], in: fixture.directory)
        #expect(status == 1)
        #expect(output.isEmpty)
        #expect(errors.contains("logger: location-unknown: no fix within the timeout"))
    }

    /// A locate still pending in `status` is waited for, however long its receiver takes: the
    /// outcome here comes 1.5 s after the reply (on a loaded machine, the 0.1 s of the test above
    /// took that long once, and a fake that called the locate ended at once lost its outcome).
    @Test func locateWaitsWhileTheDaemonSaysItIsPending() async throws {
        let fixture = try Self.fixture(authorization: .whileUsing, locateTakes: .milliseconds(1500))
        let (status, output, errors) = try await Locationctl.run(
            ["--socket", fixture.path, "locate", "logger"], in: fixture.directory)
        #expect(status == 1)
        #expect(output.isEmpty)
        #expect(errors.contains("logger: location-unknown: no fix within the timeout"), "\(errors)")
    }

    @Test func locateSaysAtOnceWhyNoPositionCanCome() async throws {
        let fixture = try Self.fixture()
        let (status, output, errors) = try await Locationctl.run(["--socket", fixture.path, "locate", "logger"], in: fixture.directory)
        #expect(status == 1 && output.isEmpty)
        #expect(errors == "locationctl: no location can come to logger: logger is set to ask.\n→ run: locationctl authorize logger while-using\n")
        #expect(!fixture.handler.requests.map(\.operation.name).contains("locate"), "nothing is asked that cannot come")
    }

    @Test func tailFindsTheClientsLogThroughTheDaemon() async throws {
        let fixture = try Self.fixture()
        let records = (0..<5).map(SampleLog.record)
        try fixture.directory.write("logger.jsonl", Array(records.map { $0.line() }.joined()))
        let (status, output, _) = try await Locationctl.run(
            ["--socket", fixture.path, "tail", "logger", "-n", "2"], in: fixture.directory)
        #expect(status == 0)
        #expect(output == records.suffix(2).map { EventRenderer.render($0, withDate: true) + "\n" }.joined())

        let (jsonStatus, json, _) = try await Locationctl.run(
            ["--socket", fixture.path, "--json", "tail", "-n3"], in: fixture.directory)
        #expect(jsonStatus == 0)
        #expect(json == records.suffix(3).map { String(decoding: $0.line(), as: UTF8.self) }.joined())
    }

    @Test func tailFollowsAppendsAndRotation() async throws {
        let directory = try ScratchDirectory("ctl-follow")
        let path = directory.file("logger.jsonl")
        try directory.write("logger.jsonl", Array((0..<3).map { SampleLog.record($0).line() }.joined()))
        let child = try Locationctl.start(["--json", "tail", path, "-fn", "1"], in: directory)
        #expect(await child.waitForLines(1))
        try FileIO.append(path, SampleLog.record(3).line() + Array("not a record\n".utf8))
        #expect(await child.waitForLines(2))
        #expect(rename(path, path + ".1") == 0)
        try FileIO.append(path, SampleLog.record(4).line())
        #expect(await child.waitForLines(3))
        child.signal(SIGINT)
        _ = try await child.finish()
        let times = child.stdoutLines.map { (try? JSONValue.parse(Array($0.utf8)))?["time"]?.stringValue }
        #expect(times == [2, 3, 4].map { UTCTime.format(SampleLog.record($0).time) })
        #expect(child.stderr.contains("skipping a line that is not a record"))
        #expect(child.stderr.contains("was rotated"))
    }

    @Test func tailWithoutTheDaemonSuggestsTheFile() async throws {
        let directory = try ScratchDirectory("ctl-tail-none")
        let (status, _, errors) = try await Locationctl.run(["--socket", directory.file("x.sock"), "tail", "logger"], in: directory)
        #expect(status == 3)
        #expect(errors.contains("Give the log file instead: locationctl tail /var/log/locationd/logger.jsonl"))
    }

    @Test func exportWritesTheFileAndReportsBadLinesByNumber() async throws {
        let directory = try ScratchDirectory("ctl-export")
        let log = try directory.write("log.jsonl", SampleLog.log(records: 50, badAt: [3, 7]))
        let (status, output, errors) = try await Locationctl.run(["export", log, "-o", directory.file("walk.gpx")], in: directory)
        #expect(status == 0)
        #expect(output.isEmpty)
        #expect(errors.contains("log.jsonl: line 3: "))
        #expect(errors.contains("log.jsonl: line 7: "))
        #expect(errors.contains("skipped 2 lines of \(log) that are not records; exported 50 records"))
        let document = Exporter.document((0..<50).map(SampleLog.record), format: .gpx)
        #expect(try directory.read("walk.gpx") == document)
        // #39: where it wrote and how much, on stderr, as the last line.
        let size = document.count < 1000 ? "\(document.count) bytes" : "\(FixedDecimal.format(Double(document.count) / 1000, decimals: 1) ?? "?") kB"
        #expect(errors.hasSuffix("locationctl: wrote 50 records as gpx to \(directory.file("walk.gpx")) (\(size))\n"), "\(errors)")
        #expect(try directory.entries().filter { $0.hasPrefix(".walk") }.isEmpty, "no temporary file left")
    }

    @Test func exportOfSomethingThatIsNotALogWritesNothing() async throws {
        let directory = try ScratchDirectory("ctl-export-bad")
        let log = try directory.write("notes.txt", "shopping list\neggs\n")
        let (status, _, errors) = try await Locationctl.run(["export", log, "--format", "kml", "-o", directory.file("out.kml")], in: directory)
        #expect(status == 1)
        #expect(errors.contains("has no records"))
        #expect(!directory.exists("out.kml"))
        // To standard output: the messages, and no empty document.
        let piped = try await Locationctl.run(["export", log, "--format", "gpx"], in: directory)
        #expect(piped.status == 1 && piped.errors.contains("has no records"))
        #expect(piped.output.isEmpty, "\(piped.output)")
    }

    @Test func exportReadsStandardInputAndWritesStandardOutput() async throws {
        let directory = try ScratchDirectory("ctl-export-pipe")
        let log = String(decoding: SampleLog.log(records: 10, badAt: []), as: UTF8.self)
        let (status, output, errors) = try await Locationctl.run(["export", "-", "--format", "csv"], in: directory, stdin: log)
        #expect(status == 0)
        #expect(!errors.contains("wrote"), "standard output carries the document alone: \(errors)")
        #expect(Array(output.utf8) == Exporter.document((0..<10).map(SampleLog.record), format: .csv))
    }

    @Test(.enabled(if: GPSBabel.isInstalled, "gpsbabel is not installed"), arguments: ExportFormat.allCases)
    func gpsbabelReadsEveryExportedPointBack(format: ExportFormat) async throws {
        let directory = try ScratchDirectory("ctl-babel")
        let log = try directory.write("log.jsonl", SampleLog.log(records: 300, badAt: [10]))
        let file = directory.file("walk.\(format.fileExtension)")
        let (status, _, _) = try await Locationctl.run(["export", log, "-o", file], in: directory)
        #expect(status == 0)
        let kind = format == .gpx || format == .kml ? "-t" : "-w"
        let reader = format == .csv ? "unicsv" : format.rawValue
        let back = directory.file("back.csv")
        #expect(try await GPSBabel.run([kind, "-i", reader, "-f", file, "-o", "unicsv,utc=0", "-F", back]) == 0)
        #expect(try GPSBabel.rows(directory.text("back.csv")).count == 300)
    }
}

extension ControlEvent {
    /// The record of a location event.
    var locationRecord: LogRecord? {
        if case .location(let record) = kind { return record }
        return nil
    }
}
