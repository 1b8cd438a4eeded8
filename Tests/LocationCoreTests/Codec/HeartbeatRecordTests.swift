import Testing
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// Heartbeat lines (`heartbeat`): no position, and every log reader skips them and counts them.
@Suite struct HeartbeatRecordTests {
    @Test func aHeartbeatLineHasNoPositionAndReadersSkipAndCountIt() throws {
        let t = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 12, minute: 0, second: 0)
        let record = HeartbeatRecord(time: t, why: .distanceFilter, heldBack: 12, receiver: "fix")
        let line = record.line
        #expect(String(decoding: line, as: UTF8.self)
                == #"{"heartbeat":true,"time":"2026-03-14T12:00:00.000Z","why":"distance-filter","heldBack":12,"receiver":"fix"}"# + "\n")
        let parsed = try JSONValue.parse(Array(line.dropLast()))
        #expect(parsed["lat"] == nil && parsed["lon"] == nil)
        var stream = LogRecordStream()
        var records = 0
        var errors = 0
        let fix = Array(#"{"time":"2026-03-14T12:00:01.000Z","lat":35.1,"lon":139.2,"mode":3}"#.utf8) + [0x0A]
        stream.feed(line + fix + line) { result in
            switch result {
            case .success: records += 1
            case .failure: errors += 1
            }
        }
        #expect(records + errors == 1, "only the line between the heartbeats reaches the reader")
        #expect(stream.heartbeats == 2)
        #expect(line.dropLast().withUnsafeBytes { LogRecordStream.record(in: $0) } == nil, "tail skips it too")
    }
}
