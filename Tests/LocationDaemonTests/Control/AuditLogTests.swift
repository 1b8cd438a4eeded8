#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationValues
@testable import LocationDaemon
import Testing
import TestSupport

/// `audit.jsonl`: one whole, synced JSON line per accepted change.
@Suite(.timeLimit(.minutes(10))) struct AuditLogTests {
    static let peer = ControlPeer(pid: 4242, uid: 1000, gid: 1000, mayChange: true)
    static let t0 = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 12, minute: 0, second: 3)

    static func authorizeRecord(time: Double = t0) -> AuditRecord {
        AuditRecord(
            time: time, peer: peer, request: ControlRequest(id: 7, .command(.authorize(client: "logger", status: .never))),
            before: ClientAuthorization(client: "logger", status: .whileUsing, stored: .whileUsing).json,
            after: ClientAuthorization(client: "logger", status: .never, stored: .never).json)
    }

    @Test func aRecordIsOneJSONLineWithTheDocumentedKeysInOrder() throws {
        let line = Self.authorizeRecord().line()
        #expect(line.last == 0x0A)
        #expect(line.dropLast().contains(0x0A) == false)
        let value = try JSONValue.parse(line)
        let keys = try #require(value.objectValue).map(\.0)
        #expect(keys == ["time", "uid", "pid", "cmd", "client", "args", "before", "after"])
        #expect(value["time"] == "2026-03-14T12:00:03.000Z")
        #expect(value["uid"] == 1000 && value["pid"] == 4242)
        #expect(value["cmd"] == "authorize" && value["client"] == "logger")
        #expect(value["args"] == ["status": "never"])
        #expect(value["before"]?["status"] == "while-using" && value["after"]?["status"] == "never")
    }

    @Test func aCommandWithoutClientOrArgumentsLeavesThemOut() throws {
        let services = AuditRecord(
            time: Self.t0, peer: Self.peer, request: ControlRequest(.command(.services(on: false))),
            before: ["services": true], after: ["services": false])
        let value = try JSONValue.parse(services.line())
        #expect(value["client"] == nil)
        #expect(value["args"] == ["state": "off"])
        let start = AuditRecord(
            time: Self.t0, peer: Self.peer, request: ControlRequest(.command(.start(client: "logger"))),
            before: ["updating": false], after: ["updating": true])
        let startValue = try JSONValue.parse(start.line())
        #expect(startValue["args"] == nil)
        #expect(startValue["client"] == "logger")
    }

    @Test func recordsAreAppendedAndSynced() throws {
        let directory = try ScratchDirectory("audit")
        let log = try AuditLog(directory: directory.path)
        #expect(log.path == directory.file("audit.jsonl"))
        for i in 0..<3 { #expect(log.record(Self.authorizeRecord(time: Self.t0 + Double(i))) == nil) }
        let lines = try directory.text("audit.jsonl").split(separator: "\n")
        #expect(lines.count == 3)
        #expect(try lines.map { try JSONValue.parse(Array($0.utf8))["time"]?.stringValue } == [
            "2026-03-14T12:00:03.000Z", "2026-03-14T12:00:04.000Z", "2026-03-14T12:00:05.000Z",
        ])
        #expect(log.linesWritten == 3)
        var info = stat()
        #expect(stat(log.path, &info) == 0 && info.st_mode & 0o777 == 0o640)
    }

    @Test func aTornLastLineIsCutOffAtOpen() throws {
        let directory = try ScratchDirectory("audit-torn")
        let whole = Self.authorizeRecord().line()
        try directory.write("audit.jsonl", whole + Array(#"{"time":"2026-03-14T12:0"#.utf8))
        let log = try AuditLog(directory: directory.path)
        log.record(Self.authorizeRecord())
        #expect(try directory.read("audit.jsonl") == whole + whole)
    }

    @Test func reopenAfterRotationStartsANewFile() throws {
        let directory = try ScratchDirectory("audit-rotate")
        let log = try AuditLog(directory: directory.path)
        log.record(Self.authorizeRecord())
        #expect(rename(directory.file("audit.jsonl"), directory.file("audit.jsonl.1")) == 0)
        try log.reopen()
        log.record(Self.authorizeRecord())
        log.record(Self.authorizeRecord())
        #expect(try directory.text("audit.jsonl.1").split(separator: "\n").count == 1)
        #expect(try directory.text("audit.jsonl").split(separator: "\n").count == 2)
    }

    @Test func recordsFromManyTasksAreWholeLines() async throws {
        let directory = try ScratchDirectory("audit-tasks")
        let log = try AuditLog(directory: directory.path)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<50 { log.record(Self.authorizeRecord(time: Self.t0 + Double(task * 1000 + i))) }
                }
            }
        }
        let lines = try directory.text("audit.jsonl").split(separator: "\n")
        #expect(lines.count == 400)
        for line in lines { #expect((try? JSONValue.parse(Array(line.utf8)))?["cmd"] == "authorize") }
    }

    @Test func afterCloseRecordsAreCountedAsLost() throws {
        let directory = try ScratchDirectory("audit-close")
        let log = try AuditLog(directory: directory.path)
        log.record(Self.authorizeRecord())
        #expect(log.close() == nil)
        log.record(Self.authorizeRecord())
        #expect(try directory.text("audit.jsonl").split(separator: "\n").count == 1)
    }
}
