import Glibc
import Testing
import TestSupport
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

@Suite struct LogRecordStreamTests {
    @Test func splitsChunksIntoRecordsAndNumberedErrors() {
        let good = LogRecordTests.tokyo.line()
        let bytes = good + Array("\n{\"broken\":1}\n".utf8) + good + good.dropLast(20)
        var stream = LogRecordStream()
        var records: [LogRecord] = []
        var errors: [LogRecordStream.LineError] = []
        func handle(_ result: Result<LogRecord, LogRecordStream.LineError>) {
            switch result {
            case .success(let r): records.append(r)
            case .failure(let e): errors.append(e)
            }
        }
        // Feed in awkward 7-byte chunks: lines cross chunk boundaries.
        var i = 0
        while i < bytes.count {
            stream.feed(Array(bytes[i..<min(i + 7, bytes.count)]), handle)
            i += 7
        }
        #expect(records.count == 2)
        #expect(errors.map(\.line) == [3])
        #expect(errors.first?.description.hasPrefix("line 3: missing \"time\"") == true)
        stream.finish(handle)
        #expect(errors.map(\.line) == [3, 5])
        #expect(errors.last?.unterminated == true)
        #expect(errors.last?.description.hasPrefix("line 5 (unterminated): not a JSON log record") == true)
    }
}

/// Files of the package itself (docs).
enum PackageFiles {
    static let protocolDoc: String? = FileIO.text(PackagePaths.path("docs/protocol.md"))
}

/// The examples in docs/protocol.md are real: every complete JSON line there decodes.
@Suite(.enabled(if: PackageFiles.protocolDoc != nil, "docs/protocol.md not found next to the tests"))
struct DocExampleTests {
    @Test func everyCompleteExampleLineDecodes() throws {
        let lines = (PackageFiles.protocolDoc ?? "").split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("{\"") && !$0.contains("…") && $0.hasSuffix("}")
        }
        #expect(lines.count >= 8)
        for line in lines {
            if line.hasPrefix(#"{"event""#) || line.hasPrefix(#"{"id""#) && line.contains(#""ok":"#) {
                #expect(throws: Never.self, "\(line)") { try ServerMessage.decode(line) }
            } else if line.hasPrefix(#"{"at""#) {
                #expect(throws: Never.self, "\(line)") { try ReplayEvents.parse(line) }
            } else if line.hasPrefix(#"{"time""#) && line.contains(#""before""#) {
                // An audit record: JSON with who, what and before → after.
                let record = try JSONValue.parse(line)
                for key in ["time", "uid", "pid", "cmd", "before", "after"] {
                    #expect(record[key] != nil, "audit example lacks \(key): \(line)")
                }
            } else if line.contains(#""cmd""#) {
                #expect((try? ControlRequest.decode(line).get()) != nil, "\(line)")
            } else if line.hasPrefix(#"{"time""#) {
                #expect(throws: Never.self, "\(line)") { try LogRecord.parse(line) }
            } else if line.hasPrefix(#"{"class""#) {
                // gpsd's protocol, as programs get it: one of the objects served.
                let object = try JSONValue.parse(line)
                #expect(["VERSION", "DEVICES", "WATCH", "TPV", "POLL", "ERROR"].contains(object["class"]?.stringValue ?? ""), "\(line)")
            } else if line.hasPrefix(#"{"type""#) {
                // GeoJSON lives in export.md; nothing here.
            } else {
                Issue.record("unclassified example line: \(line)")
            }
        }
    }
}
