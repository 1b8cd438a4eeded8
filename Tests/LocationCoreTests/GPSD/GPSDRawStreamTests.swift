import Testing
@testable import LocationCodecs
import LocationConfig
import LocationProtocol
import LocationValues

/// A raw connection to gpsd read apart (docs/sources.md, "Raw capture from gpsd"): gpsd's
/// greeting and its answer to the raw watch are dropped by their position, everything after the
/// answer is the receiver's whatever it looks like.
@Suite struct GPSDRawStreamTests {
    static let device = "/dev/ttyACM0"
    /// What gpsd 3.22 writes on such a connection before the receiver's first packet (recorded
    /// from gpsd 3.22 under gpsfake, 2026-12-06).
    static let greeting = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\r\n"
    static let answer =
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","activated":"2026-12-06T07:19:47.347Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}"#
        + "\r\n"
        + #"{"class":"WATCH","enable":true,"json":false,"nmea":false,"raw":2,"scaled":false,"timing":false,"split24":false,"pps":false,"device":"/dev/ttyACM0"}"#
        + "\r\n"
    /// Receiver bytes that look like gpsd's own: a UBX INF-NOTICE whose text is a WATCH object, then
    /// a line of JSON the receiver sent (gpsd passes a JSON-speaking receiver's objects through).
    static let receiver: [UInt8] =
        [0xB5, 0x62, 0x04, 0x02, 0x21, 0x00] + Array(#"{"class":"WATCH","enable":true}"#.utf8) + [0x0D, 0x0A, 0x6E, 0x3B]
        + Array(#"{"class":"ERROR","message":"mine"}"#.utf8) + [0x0D, 0x0A]
        + Array("$GPGGA,093000.00,3540.87194,N,13946.02401,E,1,09,0.87,34.5,M,18.4,M,,*60\r\n".utf8)

    /// Feeds `bytes` in pieces cut at `cuts`, and collects what is the receiver's.
    static func feed(_ bytes: [UInt8], cuts: [Int], into stream: inout GPSDRawStream) -> [UInt8]? {
        var kept: [UInt8] = []
        var start = 0
        for end in cuts.filter({ $0 > 0 && $0 < bytes.count }).sorted() + [bytes.count] where end > start {
            let piece = Array(bytes[start..<end])
            start = end
            guard let from = piece.withUnsafeBytes({ stream.take($0) }) else { return nil }
            kept += piece[from...]
        }
        return kept
    }

    @Test func theWatchAsksForRawModeTwoOfOneDeviceWithEveryReportOff() throws {
        let request = GPSDRawStream.request(device: "/dev/serial/by-id/usb-u-blox_\"F9P\"")
        #expect(request.last == 0x0A)
        let text = String(decoding: request.dropLast(), as: UTF8.self)
        #expect(text.hasPrefix(#"?WATCH={"enable":true,"#))
        let watch = try JSONValue.parse(Array(text.utf8.dropFirst("?WATCH=".count)))
        #expect(watch["raw"]?.intValue == 2)
        #expect(watch["json"]?.boolValue == false && watch["nmea"]?.boolValue == false && watch["pps"]?.boolValue == false)
        #expect(watch["device"]?.stringValue == "/dev/serial/by-id/usb-u-blox_\"F9P\"", "the path as a JSON string")
    }

    @Test(arguments: [[], [1], [40, 41, 300], [87, 88, 89]])
    func gpsdsLinesAreDroppedAndEverythingAfterItsWatchAnswerKept(cuts: [Int]) throws {
        let bytes = Array((Self.greeting + Self.answer).utf8) + Self.receiver
        var stream = GPSDRawStream(device: Self.device)
        let kept = try #require(Self.feed(bytes, cuts: cuts, into: &stream))
        #expect(kept == Self.receiver)
        #expect(stream.state == .streaming)
        #expect(stream.droppedBytes == (Self.greeting + Self.answer).utf8.count)
    }

    @Test func everyCutOfTheStreamKeepsTheSameBytes() throws {
        let head = Array((Self.greeting + Self.answer).utf8)
        let bytes = head + Self.receiver
        // A read may end anywhere: inside a line of gpsd's, right after its WATCH line, or inside
        // the receiver's bytes where a later read starts with `{"class":"WATCH"`.
        for cut in 1..<bytes.count {
            var stream = GPSDRawStream(device: Self.device)
            let kept = Self.feed(bytes, cuts: [cut], into: &stream)
            #expect(kept == Self.receiver, "cut at \(cut)")
        }
        // And one byte at a time.
        var stream = GPSDRawStream(device: Self.device)
        #expect(Self.feed(bytes, cuts: Array(1..<bytes.count), into: &stream) == Self.receiver)
    }

    @Test func anErrorInsteadOfTheAnswerRefusesTheConnection() {
        var stream = GPSDRawStream(device: "/dev/gone")
        let bytes = Array((Self.greeting + #"{"class":"ERROR","message":"No such device as /dev/gone"}"# + "\r\n").utf8)
        #expect(bytes.withUnsafeBytes { stream.take($0) } == nil)
        #expect(stream.state == .refused("No such device as /dev/gone"))
        #expect([UInt8]([1]).withUnsafeBytes { stream.take($0) } == nil, "and it stays refused")
    }

    @Test(arguments: [
        // Not raw mode 2 (a gpsd that ignored it would send hex dumps or JSON).
        #"{"class":"WATCH","enable":true,"json":false,"raw":1,"device":"/dev/ttyACM0"}"#,
        // JSON reports on: gpsd's TPVs would come between the receiver's bytes.
        #"{"class":"WATCH","enable":true,"json":true,"raw":2,"device":"/dev/ttyACM0"}"#,
        // PPS on: gpsd's PPS and TOFF objects would.
        #"{"class":"WATCH","enable":true,"raw":2,"pps":true,"device":"/dev/ttyACM0"}"#,
        // Another device.
        #"{"class":"WATCH","enable":true,"raw":2,"device":"/dev/ttyUSB1"}"#,
    ])
    func aWatchAnswerThatDoesNotConfirmTheRuleBreaksTheConnection(answer: String) {
        var stream = GPSDRawStream(device: Self.device)
        let bytes = Array((Self.greeting + answer + "\r\n").utf8) + Self.receiver
        #expect(bytes.withUnsafeBytes { stream.take($0) } == nil)
        guard case .broken(let why) = stream.state else {
            Issue.record("\(stream.state)")
            return
        }
        #expect(why.contains("did not take the raw watch"))
    }

    @Test func bytesThatAreNotGpsdsJSONBeforeTheAnswerBreakTheConnection() {
        var stream = GPSDRawStream(device: Self.device)
        let bytes = Array("HTTP/1.1 400 Bad Request\u{1B}[2J\r\n".utf8)
        #expect(bytes.withUnsafeBytes { stream.take($0) } == nil)
        guard case .broken(let why) = stream.state else {
            Issue.record("\(stream.state)")
            return
        }
        #expect(why.contains("'HTTP/1.1 400 Bad Request\\x1b[2J'"), "escaped for the journal: \(why)")
    }

    @Test func aHandshakeLineWithoutEndIsCutOffAtTheLimit() {
        var stream = GPSDRawStream(device: Self.device)
        let bytes = Array(#"{"class":"DEVICES","devices":["#.utf8) + [UInt8](repeating: 0x20, count: GPSDRawStream.lineLimit)
        #expect(bytes.withUnsafeBytes { stream.take($0) } == nil)
        guard case .broken = stream.state else {
            Issue.record("\(stream.state)")
            return
        }
    }
}
