import Testing
import TestSupport
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

@Suite struct LogRecordTests {
    static let tokyoTime = Samples.tokyoTime
    static var tokyo: LogRecord { Samples.tokyo }

    @Test func writesTheSpecExampleExactly() {
        #expect(
            Self.tokyo.text
                == #"{"time":"2026-03-14T23:50:01.000Z","lat":35.6811990,"lon":139.7670669,"alt":40.0,"hAcc":17.1,"vAcc":27.6,"speed":0.26,"course":90.0,"mode":3,"accuracy":"full","client":"logger"}"#
                + "\n")
    }

    @Test func buildsFromADeliveryAndOmitsUnknownValues() throws {
        let fix = Fix(
            time: Self.tokyoTime + 0.25, mode: .twoD, latitude: -33.8678500, longitude: 151.2073200,
            altitude: .nan, horizontalError: 2000, verticalError: nil, speed: .infinity, course: nil,
            satellitesUsed: 7)
        let record = try #require(LogRecord(delivery: Delivery(client: "a\"b", fix: fix, accuracy: .reduced)))
        let text = record.text
        #expect(
            text
                == #"{"time":"2026-03-14T23:50:01.250Z","lat":-33.8678500,"lon":151.2073200,"hAcc":2000.0,"mode":2,"sats":7,"accuracy":"reduced","client":"a\"b"}"#
                + "\n")
        #expect(!text.contains("null") && !text.contains("nan") && !text.contains("inf"))
    }

    @Test(arguments: [
        Fix(time: nil, mode: .threeD, latitude: 1, longitude: 2),
        Fix(time: 0, mode: .threeD, latitude: .nan, longitude: 2),
        Fix(time: 0, mode: .threeD, latitude: 91, longitude: 2),
        Fix(time: 0, mode: .threeD, latitude: 1, longitude: -180.5),
        Fix(time: .infinity, mode: .threeD, latitude: 1, longitude: 2),
        Fix(time: 1e13, mode: .threeD, latitude: 1, longitude: 2),
    ])
    func refusesDeliveriesThatCannotBeARecord(fix: Fix) {
        #expect(LogRecord(delivery: Delivery(client: "logger", fix: fix, accuracy: .full)) == nil)
    }

    @Test func roundTripsThroughItsLine() throws {
        var state: UInt64 = 42
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        for i in 0..<500 {
            let original = LogRecord(
                time: 1.7e9 + Double(i) * 1.001, latitude: next() * 180 - 90, longitude: next() * 360 - 180,
                altitude: i % 3 == 0 ? nil : next() * 9000 - 400, horizontalError: next() * 50,
                verticalError: i % 5 == 0 ? nil : next() * 80, speed: next() * 40, course: next() * 360,
                mode: i % 2 == 0 ? .threeD : .twoD, satellites: i % 4 == 0 ? nil : i % 30,
                accuracy: i % 7 == 0 ? .reduced : .full, client: "client-\(i % 3)")
            let back = try LogRecord.parse(original.line())
            #expect(abs(back.time - original.time) <= 0.0005)
            #expect(abs(back.latitude - original.latitude) <= 0.5e-7 + 1e-12)
            #expect(abs(back.longitude - original.longitude) <= 0.5e-7 + 1e-12)
            #expect(back.altitude.map { abs($0 - original.altitude!) <= 0.0005 + 1e-9 } ?? (original.altitude == nil))
            #expect(back.verticalError == nil ? original.verticalError == nil : true)
            #expect(back.mode == original.mode && back.satellites == original.satellites)
            #expect(back.accuracy == original.accuracy && back.client == original.client)
            // Writing the parsed record again gives the same bytes: the line is a fixed point.
            #expect(back.line() == original.line())
        }
    }

    @Test func parsesAnyKeyOrderAndIgnoresExtraKeysAndNulls() throws {
        let record = try LogRecord.parse(
            #"{"client":"logger","accuracy":"full","mode":3,"lon":4.5,"lat":52.25,"time":"2026-03-14T23:50:01Z","alt":null,"note":"x"}"#
        )
        #expect(record.latitude == 52.25 && record.longitude == 4.5 && record.altitude == nil)
        #expect(record.time == UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 23, minute: 50, second: 1))
    }

    @Test(arguments: [
        ("not json", "not a JSON log record"),
        ("[1,2]", "must be a JSON object"),
        (#"{"lat":1,"lon":2,"mode":3,"accuracy":"full","client":"c"}"#, #"missing "time""#),
        (#"{"time":"yesterday","lat":1,"lon":2,"mode":3,"accuracy":"full","client":"c"}"#, #""time" must be ISO 8601"#),
        (#"{"time":"2026-03-14T23:50:01Z","lon":2,"mode":3,"accuracy":"full","client":"c"}"#, #"missing "lat""#),
        (#"{"time":"2026-03-14T23:50:01Z","lat":"1","lon":2,"mode":3,"accuracy":"full","client":"c"}"#, #""lat" must be a number from -90 to 90"#),
        (#"{"time":"2026-03-14T23:50:01Z","lat":1,"lon":200,"mode":3,"accuracy":"full","client":"c"}"#, #""lon" must be a number from -180 to 180"#),
        (#"{"time":"2026-03-14T23:50:01Z","lat":1,"lon":2,"mode":7,"accuracy":"full","client":"c"}"#, #""mode" must be 0, 1, 2 or 3"#),
        (#"{"time":"2026-03-14T23:50:01Z","lat":1,"lon":2,"mode":3,"accuracy":"fine","client":"c"}"#, #""accuracy" must be "full" or "reduced""#),
        (#"{"time":"2026-03-14T23:50:01Z","lat":1,"lon":2,"mode":3,"accuracy":"full","client":""}"#, #""client" must be a non-empty string"#),
        (#"{"time":"2026-03-14T23:50:01Z","lat":1,"lon":2,"mode":3,"accuracy":"full"}"#, #"missing "client""#),
        (#"{"time":"2026-03-14T23:50:01Z","lat":1,"lon":2,"mode":3,"accuracy":"full","client":"c","alt":"high"}"#, #""alt" must be a number"#),
        (#"{"time":"2026-03-14T23:50:01Z","lat":1,"lon":2,"mode":3,"accuracy":"full","client":"c","sats":-1}"#, #""sats" must be a whole number"#),
        (#"{"time":"2026-03-14T23:50:01Z","lat":1,"lon":2,"mode":3,"accu"#, "not a JSON log record"),
    ])
    func namesWhatIsWrongWithABadLine(line: String, expected: String) {
        do {
            _ = try LogRecord.parse(line)
            Issue.record("parsed a bad line: \(line)")
        } catch {
            #expect(error.reason.contains(expected), "\(error.reason)")
        }
    }
}
