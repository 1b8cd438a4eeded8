import Testing
import TestSupport
@testable import LocationProtocol
import LocationTools

/// #8: a log that cannot be written is in `status` — lines held now, lines lost since start, the
/// error and since when — never silent.
@Suite struct LogWriteStatusTests {
    static let since = Samples.t0 - 62
    static let failing = LogWriteStatus(
        path: "/var/log/locationd/logger.jsonl", written: 400, held: 120, lost: 0,
        error: "write /var/log/locationd/logger.jsonl: No space left on device", since: since)

    static func client(_ log: LogWriteStatus?, drops: DropCounters = DropCounters()) -> ClientStatus {
        var client = Samples.delivering
        client.logWrite = log
        client.drops = drops
        return client
    }

    @Test func statusJSONCarriesItPerClientAndReadsItBack() throws {
        let engine = EngineStatus(
            services: true, source: .fix, lastFix: nil, lastFixAge: nil, clients: [Self.client(Self.failing)])
        let report = StatusReport(status: engine, time: Samples.t0)
        let json = report.json
        let log = try #require(json["clients"]?.arrayValue?.first?["logWrite"])
        #expect(log["held"]?.intValue == 120 && log["lost"]?.intValue == 0 && log["written"]?.intValue == 400)
        #expect(log["failing"] == .bool(true) && log["open"] == .bool(true))
        #expect(log["error"]?.stringValue == "write /var/log/locationd/logger.jsonl: No space left on device")
        #expect(log["since"]?.stringValue == "2026-03-14T11:59:01.000Z")
        let decoded = try StatusReport(json: json)
        #expect(decoded.status.clients.first?.logWrite == Self.failing)
        // Writing works: no error, no `since`; the lost count stays.
        let working = LogWriteStatus(path: "/l.jsonl", written: 9, lost: 5)
        let members = working.json
        #expect(members["failing"] == .bool(false) && members["error"] == nil && members["since"] == nil)
        #expect(try LogWriteStatus(json: members) == working)
        // A client without a log says nothing of one.
        #expect(Samples.delivering.json["logWrite"] == nil)
    }

    @Test func theRawCaptureFilesAreNamedOnlyWhileWritten() {
        var client = Samples.delivering
        #expect(!StatusRenderer.clientLines(client, now: Samples.t0).joined().contains("raw capture"))
        client.rawLogs = ["/var/log/locationd/raw/ttyACM0-20260314-12.ubx"]
        #expect(StatusRenderer.clientLines(client, now: Samples.t0).contains(
            "  raw capture: /var/log/locationd/raw/ttyACM0-20260314-12.ubx"))
    }

    @Test func whileWritingFailsStatusSaysWhatSinceWhenAndHowMany() {
        let text = StatusRenderer.clientLines(Self.client(Self.failing), now: Samples.t0).joined(separator: "\n")
        #expect(
            text.contains(
                "\n  log: cannot write /var/log/locationd/logger.jsonl: No space left on device since 2026-03-14 11:59:01 UTC; "
                    + "120 lines held in memory, 0 lost\n"), "\(text)")
        var one = Self.failing
        one.held = 1
        one.lost = 3
        #expect(one.failureLine?.hasSuffix("; 1 line held in memory, 3 lost") == true)
        // A log that could not be opened says so, and what brings it back.
        let closed = LogWriteStatus(
            path: "/l.jsonl", open: false, lost: 2, error: "open /l.jsonl: Permission denied", since: Self.since)
        #expect(
            closed.failureLine
                == "cannot open /l.jsonl: Permission denied since 2026-03-14 11:59:01 UTC; 0 lines held in memory, 2 lost; "
                + "fixes are not logged until SIGHUP opens it")
    }

    @Test func lostLinesAreCountedInTheDropSummaryAndAWorkingLogSaysNothing() {
        var drops = DropCounters()
        drops[.accuracyGate] = 4
        let lost = LogWriteStatus(path: "/l.jsonl", written: 2000, lost: 7)
        let text = StatusRenderer.clientLines(Self.client(lost, drops: drops), now: Samples.t0).joined(separator: "\n")
        #expect(text.contains("  not delivered: accuracy gate 4, not logged 7 (the log could not be written)"), "\(text)")
        #expect(!text.contains("  log:"), "writing works again: no log line")
        let onlyLost = StatusRenderer.clientLines(Self.client(lost), now: Samples.t0).joined(separator: "\n")
        #expect(onlyLost.contains("  not delivered: not logged 7 (the log could not be written)"))
        let fine = StatusRenderer.clientLines(Self.client(LogWriteStatus(path: "/l.jsonl", written: 9)), now: Samples.t0)
        #expect(!fine.contains { $0.contains("not delivered") || $0.contains("log:") })
    }
}
