import Testing
@testable import LocationCore
@testable import LocationValues

@Suite struct JSONValueTests {
    @Test func roundTripsNestedValues() throws {
        let text = #"{"id":7,"cmd":"authorize","nested":{"a":[1,2.5,-3e2,true,false,null]},"s":"é\n\"q\"\\"}"#
        let value = try JSONValue.parse(text)
        #expect(value["id"]?.intValue == 7)
        #expect(value["nested"]?["a"]?.arrayValue?.count == 6)
        #expect(value["s"]?.stringValue == "é\n\"q\"\\")
        #expect(try JSONValue.parse(value.serialized) == value)
    }

    @Test func decodesSurrogatePairs() throws {
        #expect(try JSONValue.parse(#""\ud83d\ude00""#).stringValue == "😀")
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#""\ud83d""#) }
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"abc", "{} x", "\"\u{1}\"", "[1e999]", "nul",
    ])
    func refusesMalformedText(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func writesIntegersWithoutFractionAndEscapesControls() {
        let v: JSONValue = ["n": 3, "f": 0.25, "c": "\u{1}"]
        #expect(v.serialized == #"{"n":3,"f":0.25,"c":"\u0001"}"#)
    }
}

@Suite struct UTCTimeTests {
    @Test func formatsMilliseconds() {
        #expect(UTCTime.format(0) == "1970-01-01T00:00:00.000Z")
        let t = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 23, minute: 50, second: 1.0)
        #expect(UTCTime.format(t) == "2026-03-14T23:50:01.000Z")
        #expect(UTCTime.format(t + 0.9996) == "2026-03-14T23:50:02.000Z")
        #expect(UTCTime.format(-0.5, fractionDigits: 1) == "1969-12-31T23:59:59.5Z")
    }

    @Test func parsesWhatItFormats() throws {
        for t in stride(from: -1.0e9, through: 4.0e9, by: 123_456_789.123) {
            let text = UTCTime.format(t)
            let back = try #require(UTCTime.parse(text))
            #expect(abs(back - t) < 0.0006)
        }
    }

    @Test func parsesOffsetsAndRefusesNonsense() {
        #expect(UTCTime.parse("2026-03-14T23:52:00Z") == UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 23, minute: 52, second: 0))
        #expect(UTCTime.parse("2026-03-15T01:52:00+02:00") == UTCTime.parse("2026-03-14T23:52:00Z"))
        #expect(UTCTime.parse("2026-02-30T00:00:00Z") == nil)
        #expect(UTCTime.parse("2026-03-14T23:52:00") == nil)
        #expect(UTCTime.parse("yesterday") == nil)
    }
}
