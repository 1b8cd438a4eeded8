import Foundation
import LocationCore
import LocationDaemon
import Testing

/// `state.json` through the Foundation-free JSONValue coder.
@Suite struct StateCodecTests {
    func engineState() -> SavedState {
        let clients = [
            ClientSettings(name: "logger", precise: false, authorization: .always, updating: true, inUse: true),
            ClientSettings(name: "other", authorization: .whileUsing),
        ]
        var engine = Engine(settings: EngineSettings(clients: clients), saved: nil, seed: 42)
        // A reduced delivery sets the drift hour and the last delivery time.
        _ = engine.handle(.fix(walkFix(0)), now: 0)
        return engine.savedState
    }

    @Test func savedStateRoundTripsExactly() throws {
        let state = engineState()
        #expect(state.client("logger")?.reduced.lastDelivery != nil)
        let bytes = try StateCodec.encode(state)
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(try StateCodec.decode(bytes) == state)
        // The same state always gives the same bytes.
        #expect(try StateCodec.encode(try StateCodec.decode(bytes)) == bytes)
    }

    @Test func foundationReadsWhatWeWriteAndWeReadWhatFoundationWrites() throws {
        let state = engineState()
        let ours = try StateCodec.encode(state)
        #expect(try JSONDecoder().decode(SavedState.self, from: Data(ours)) == state)
        let theirs = try JSONEncoder().encode(state)
        #expect(try StateCodec.decode([UInt8](theirs)) == state)
    }

    @Test(arguments: [
        ("", "not JSON"),
        ("{\"version\":1,\"services\":tru", "not JSON"),
        ("[]", "not a locationd state: at the top level: expected"),
        ("{\"version\":1,\"clients\":[]}", "\"services\" is missing"),
        ("{\"version\":9,\"services\":true,\"clients\":[]}", "state format version 9"),
        ("{\"version\":1,\"services\":\"on\",\"clients\":[]}", "at services: expected true or false"),
        ("{\"version\":1.5,\"services\":true,\"clients\":[]}", "at version: 1.5 is not a whole number"),
        (
            "{\"version\":1,\"services\":true,\"clients\":[{\"name\":\"a\",\"status\":\"always\",\"provisional\":false,"
                + "\"fullAccuracy\":true,\"upgradePromptShown\":false,\"reduced\":{\"offsetEast\":0,\"offsetNorth\":0,"
                + "\"random\":[\"0\",\"0\",\"0\",\"0\"]}}]}",
            "at clients[0].reduced.random[4]: random state must be four hexadecimal words"
        ),
    ])
    func badStateFilesAreRefusedWithAMessageNamingWhere(text: String, message: String) {
        #expect {
            _ = try StateCodec.decode(Array(text.utf8))
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func nestedCodableShapesSurviveTheValueCoder() throws {
        struct Inner: Codable, Equatable {
            var e: AccuracyAuthorization
            var tags: [String: Int]
            var maybe: Double?
            var list: [[Bool]]
        }
        let value = Inner(e: .temporaryFull(purpose: "survey"), tags: ["a": 1, "b": -2], maybe: nil, list: [[true], []])
        let json = try JSONValueEncoder().encode(value)
        #expect(json["maybe"] == nil)
        #expect(try JSONValueDecoder().decode(Inner.self, from: json) == value)
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([UInt64.max]) }
    }
}
