#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationValues
@testable import LocationDaemon
import Testing

/// Requests and replies over a real Unix socket: order, malformed input,
/// line limits, half-closed peers.
@Suite(.timeLimit(.minutes(10))) struct ControlServerTests {
    @Test func helloIsAnsweredWithTheProtocolVersion() async throws {
        let fixture = try ServerFixture()
        let client = try fixture.client()
        let reply = try await client.request(.hello, id: 1)
        #expect(reply.isOK)
        #expect(reply.id == 1)
        let hello = try reply.hello()
        #expect(hello.protocolVersion == ControlProtocol.version)
        #expect(hello.clients.map(\.name) == ["logger", "survey"])
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        // Each request waits a random time in the handler; replies must still come in request order.
        let fixture = try ServerFixture(handler: { FakeControlHandler(logDirectory: $0, jitter: 0.002) })
        let client = try fixture.client()
        var batch: [UInt8] = []
        let operations: [ControlRequest.Operation] = [.hello, .status(client: nil), .prompts, .command(.start(client: "logger"))]
        for i in 0..<200 {
            batch += Array(ControlRequest(id: .number(Double(i)), operations[i % operations.count]).line().utf8)
        }
        try await client.send(raw: batch)
        for i in 0..<200 {
            let reply = try #require(try await client.json())
            #expect(reply["id"]?.intValue == i)
            #expect(reply["ok"]?.boolValue == true)
        }
        #expect(fixture.handler.requests.map(\.id) == (0..<200).map { .number(Double($0)) })
    }

    static let malformed: [(line: String, code: String)] = [
        ("not json", "bad-request"),
        ("[1,2,3]", "bad-request"),
        (#"{"id":[1],"cmd":"hello"}"#, "bad-request"),
        (#"{"id":2}"#, "bad-request"),
        (#"{"id":3,"cmd":7}"#, "bad-request"),
        (#"{"id":4,"cmd":"autorize","client":"logger","status":"never"}"#, "unknown-command"),
        (#"{"id":5,"cmd":"authorize","client":"logger"}"#, "invalid-argument"),
        (#"{"id":6,"cmd":"authorize","client":"logger","status":"whileusing"}"#, "invalid-argument"),
        (#"{"id":7,"cmd":"status","clinet":"logger"}"#, "invalid-argument"),
        ("{\"cmd\":\"hello\"", "bad-request"),
        ("\u{01}\u{02}\u{7F}\u{FF}", "bad-request"),
        (String(repeating: "[", count: 500), "bad-request"),
    ]

    @Test func malformedLinesGetErrorRepliesAndTheConnectionStaysUsable() async throws {
        let fixture = try ServerFixture()
        let client = try fixture.client()
        for (line, code) in Self.malformed {
            try await client.send(line: line)
            let reply = try #require(try await client.json())
            #expect(reply["ok"]?.boolValue == false, "\(line)")
            #expect(reply["error"]?["code"]?.stringValue == code, "\(line) → \(reply.serialized)")
            if let id = (try? JSONValue.parse(Array(line.utf8)))?["id"], id.intValue != nil {
                #expect(reply["id"] == id, "the error echoes the id it could read")
            }
            let hello = try await client.request(.hello, id: "after")
            #expect(hello.isOK)
        }
        #expect(fixture.handler.requests.count == Self.malformed.count, "only the hellos reached the handler")
        #expect(await fixture.eventually { fixture.server.statistics.malformed == Self.malformed.count })
    }

    @Test func tenThousandRandomLinesEachGetAnErrorReplyAndTheServerKeepsServing() async throws {
        let fixture = try ServerFixture()
        let client = try fixture.client()
        var generator = SplitMix(seed: 0x5EED)
        let lines = (0..<10_000).map { _ in RandomLines.line(&generator) }
        var answered = 0
        for start in stride(from: 0, to: lines.count, by: 500) {
            let chunk = lines[start..<min(start + 500, lines.count)]
            try await client.send(raw: Array(chunk.map { $0 + [0x0A] }.joined()))
            for _ in chunk {
                let reply = try #require(try await client.json())
                #expect(reply["ok"] != nil)
                answered += 1
            }
        }
        #expect(answered == lines.count)
        let hello = try await client.request(.hello, id: 1)
        #expect(hello.isOK)
        let other = try fixture.client()
        #expect(try await other.request(.status(client: nil), id: 2).isOK)
        #expect(await fixture.eventually { fixture.server.statistics.connections == 2 })
    }

    @Test func aLineOfExactly64KiBIsAcceptedAndOneByteMoreIsTooLong() async throws {
        let fixture = try ServerFixture()
        let client = try fixture.client()
        let prefix = #"{"id":1,"cmd":"hello""#
        let exact = prefix + String(repeating: " ", count: ControlProtocol.maximumLineLength - prefix.utf8.count - 1) + "}"
        #expect(exact.utf8.count == ControlProtocol.maximumLineLength)
        try await client.send(line: exact)
        let accepted = try #require(try await client.json())
        #expect(accepted["ok"]?.boolValue == true)

        try await client.send(line: exact + " ")
        let refused = try #require(try await client.json())
        #expect(refused["error"]?["code"]?.stringValue == "too-long")
        #expect(try await client.request(.hello, id: 2).isOK)
    }

    @Test func aHugeLineGetsOneTooLongReplyAndTheRestOfItIsDropped() async throws {
        let fixture = try ServerFixture()
        let client = try fixture.client()
        // 1 MiB without a newline, sent in pieces, then the newline and a good request.
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
        for _ in 0..<16 { try await client.send(raw: piece) }
        try await client.send(raw: [0x0A] + Array(ControlRequest(id: 9, .hello).line().utf8))
        let refused = try #require(try await client.json())
        #expect(refused["error"]?["code"]?.stringValue == "too-long")
        let hello = try #require(try await client.json())
        #expect(hello["id"]?.intValue == 9 && hello["ok"]?.boolValue == true)
        #expect(fixture.server.statistics.bufferedBytes < 200_000)
    }

    @Test func blankLinesAreSkippedAndCRLFIsAccepted() async throws {
        let fixture = try ServerFixture()
        let client = try fixture.client()
        try await client.send(raw: Array("\n  \r\n{\"id\":1,\"cmd\":\"hello\"}\r\n".utf8))
        let reply = try #require(try await client.json())
        #expect(reply["id"]?.intValue == 1 && reply["ok"]?.boolValue == true)
    }

    @Test func aPeerThatStopsSendingStillGetsEveryReply() async throws {
        let fixture = try ServerFixture()
        let client = try fixture.client()
        // The last request has no newline: the end of input ends it.
        try await client.send(raw: Array("{\"id\":1,\"cmd\":\"hello\"}\n{\"id\":2,\"cmd\":\"prompts\"}\n{\"id\":3,\"cmd\":\"hello\"}".utf8))
        client.finishSending()
        for id in 1...3 {
            let reply = try #require(try await client.json())
            #expect(reply["id"]?.intValue == id)
        }
        #expect(try await client.line() == nil, "then the server closes")
    }

    @Test func requestsOfAPeerThatHungUpAreStillCarriedOut() async throws {
        let fixture = try ServerFixture()
        do {
            let client = try fixture.client()
            try await client.send(raw: Array(ControlRequest(.command(.authorize(client: "logger", status: .never))).line().utf8))
        }
        #expect(await fixture.eventually { fixture.handler.authorization("logger").stored == .never })
        #expect(await fixture.eventually { fixture.server.statistics.connections == 0 })
    }
}

/// A small deterministic random source for generated input.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random request lines: garbage bytes, mangled JSON, and requests with bad fields.
enum RandomLines {
    static let seeds = [
        #"{"id":1,"cmd":"authorize","client":"logger","status":"never"}"#,
        #"{"cmd":"status","client":"logger"}"#,
        #"{"id":"x","cmd":"locate","client":"logger","timeout":30}"#,
        #"{"cmd":"answer","client":"logger","answer":"allow-once"}"#,
    ]

    /// One line with no newline in it and at least one byte that is not white
    /// space. Never a `watch` (which would turn the connection into a stream).
    static func line(_ generator: inout SplitMix) -> [UInt8] {
        var bytes: [UInt8]
        switch generator.next() % 4 {
        case 0:
            // Random bytes.
            bytes = (0..<Int(generator.next() % 300)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        case 1:
            // A request with bytes flipped.
            bytes = Array(seeds[Int(generator.next() % UInt64(seeds.count))].utf8)
            for _ in 0..<1 + Int(generator.next() % 4) {
                let at = Int(generator.next() % UInt64(bytes.count))
                bytes[at] ^= UInt8(1 + generator.next() % 255)
            }
        case 2:
            // A request cut short.
            let seed = Array(seeds[Int(generator.next() % UInt64(seeds.count))].utf8)
            bytes = Array(seed.prefix(Int(generator.next() % UInt64(seed.count))))
        default:
            // Valid JSON that is not a valid request.
            let values = [#"{"cmd":null}"#, #"{"cmd":"status","client":12}"#, #""hello""#, "42", #"{"cmd":"services","state":"maybe"}"#, #"{"cmd":"locate","client":"logger","timeout":-1}"#]
            bytes = Array(values[Int(generator.next() % UInt64(values.count))].utf8)
        }
        bytes.removeAll { $0 == 0x0A }
        // Never blank: blank lines get no reply.
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { bytes.insert(UInt8(ascii: "#"), at: 0) }
        return bytes
    }
}
