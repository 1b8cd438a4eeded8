import LocationConfig
import LocationCore
import LocationDaemon
import Testing
import TestSupport

/// `state.json` through the project's JSON codec.
@Suite(.timeLimit(.minutes(10))) struct StateCodecTests {
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
        let bytes = StateCodec.encode(state)
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(try StateCodec.decode(bytes) == state)
        // The same state always gives the same bytes.
        #expect(StateCodec.encode(try StateCodec.decode(bytes)) == bytes)
    }

    /// A file the previous format (version 1) wrote: read as it was, and written back as version 2.
    @Test func aVersionOneFileIsReadAndRewrittenAsVersionTwo() throws {
        let v1 = """
            {"version":1,"services":true,"clients":[{"name":"logger","status":"always","provisional":false,\
            "fullAccuracy":false,"upgradePromptShown":true,"reduced":{"offsetEast":-0.0632,"offsetNorth":-0.5419,\
            "random":["ab004e097d6a33bc","bff00f1ee0eac313","3a6b97164cecee24","89f0de5fd6390c76"],\
            "driftHour":492624,"lastDelivery":1773446400}}]}

            """
        let state = try StateCodec.decode(Array(v1.utf8))
        let logger = try #require(state.client("logger"))
        #expect(logger.status == .always && !logger.provisional && !logger.fullAccuracy && logger.upgradePromptShown)
        #expect(!logger.shareConsent)
        #expect(logger.reduced.offsetEast == -0.0632 && logger.reduced.offsetNorth == -0.5419)
        #expect(logger.reduced.driftHour == 492624 && logger.reduced.lastDelivery == 1_773_446_400)
        let v2 = String(decoding: StateCodec.encode(state), as: UTF8.self)
        let expected = v1.replacingOccurrences(of: "\"version\":1", with: "\"version\":2")
            .replacingOccurrences(of: "\"upgradePromptShown\":true,", with: "\"upgradePromptShown\":true,\"shareConsent\":false,")
        #expect(v2 == expected)
    }

    /// What the last version 1 build wrote (its Codable encoder: every member in declaration order,
    /// `shareConsent` included, `lastDelivery` on the wall clock): nothing of it is lost.
    @Test func aVersionOneFileWithTheShareConsentKeepsIt() throws {
        let v1 = """
            {"version":1,"services":false,"clients":[{"name":"logger","status":"while-using","provisional":false,\
            "fullAccuracy":true,"upgradePromptShown":false,"shareConsent":true,"reduced":{"offsetEast":1.25,\
            "offsetNorth":-0.5,"random":["0000000000000001","ffffffffffffffff","3a6b97164cecee24","89f0de5fd6390c76"],\
            "lastDelivery":1796112000.25}},{"name":"other","status":"ask","provisional":false,"fullAccuracy":true,\
            "upgradePromptShown":false,"shareConsent":false,"reduced":{"offsetEast":0,"offsetNorth":0,\
            "random":["0000000000000001","0000000000000002","0000000000000003","0000000000000004"]}}]}

            """
        let state = try StateCodec.decode(Array(v1.utf8))
        #expect(!state.services)
        let logger = try #require(state.client("logger"))
        #expect(logger.status == .whileUsing && logger.fullAccuracy && logger.shareConsent)
        #expect(logger.reduced.offsetEast == 1.25 && logger.reduced.driftHour == nil)
        #expect(logger.reduced.lastDelivery == 1_796_112_000.25)
        #expect(logger.reduced.random.state.1 == UInt64.max)
        let other = try #require(state.client("other"))
        #expect(other.status == .ask && !other.shareConsent && other.reduced.lastDelivery == nil)
        let v2 = String(decoding: StateCodec.encode(state), as: UTF8.self)
        #expect(v2 == v1.replacingOccurrences(of: "\"version\":1", with: "\"version\":2"))
    }

    @Test(arguments: [
        ("", "not JSON"),
        ("{\"version\":1,\"services\":tru", "not JSON"),
        ("[]", "not a locationd state: expected an object"),
        ("{\"version\":1,\"clients\":[]}", "\"services\" is missing"),
        ("{\"version\":9,\"services\":true,\"clients\":[]}", "state format version 9"),
        ("{\"version\":1,\"services\":\"on\",\"clients\":[]}", "at services: expected true or false"),
        ("{\"version\":1.5,\"services\":true,\"clients\":[]}", "at version: 1.5 is not a whole number"),
        ("{\"version\":2,\"services\":true,\"clients\":{}}", "at clients: expected an array"),
        (
            "{\"version\":1,\"services\":true,\"clients\":[{\"name\":\"a\",\"status\":\"sometimes\"}]}",
            "at clients[0].status: \"sometimes\" is not one of"
        ),
        (
            "{\"version\":1,\"services\":true,\"clients\":[{\"name\":\"a\",\"status\":\"always\",\"provisional\":false,"
                + "\"fullAccuracy\":true,\"upgradePromptShown\":false,\"reduced\":{\"offsetEast\":0,\"offsetNorth\":0,"
                + "\"random\":[\"0\",\"0\",\"0\",\"0\"]}}]}",
            "at clients[0].reduced.random: random state must be four hexadecimal words, not all zero"
        ),
        (
            "{\"version\":1,\"services\":true,\"clients\":[{\"name\":\"a\",\"status\":\"always\",\"provisional\":false,"
                + "\"fullAccuracy\":true,\"upgradePromptShown\":false,\"reduced\":{\"offsetEast\":0,\"offsetNorth\":0,"
                + "\"random\":[\"1\",\"2\",3,\"4\"]}}]}",
            "at clients[0].reduced.random[2]: random state words are hexadecimal strings"
        ),
    ])
    func badStateFilesAreRefusedWithAMessageNamingWhere(text: String, message: String) {
        #expect {
            _ = try StateCodec.decode(Array(text.utf8))
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}

/// `state.json` read client by client at start (#47): one bad entry costs that entry alone.
@Suite(.timeLimit(.minutes(10))) struct StateKeeperRowsTests {
    @Test func aBadSavedClientIsSkippedTheOthersKeptAndTheFileSetAside() throws {
        let dir = try ScratchDirectory("state-rows")
        let store = StateStore(directory: dir.path)
        let random = #""random":["1","2","3","4"]"#
        func row(_ name: String, _ status: String) -> String {
            #"{"name":"\#(name)","status":"\#(status)","provisional":false,"fullAccuracy":true,"upgradePromptShown":false,"#
                + #""shareConsent":false,"reduced":{"offsetEast":0,"offsetNorth":0,\#(random)}}"#
        }
        let text = #"{"version":2,"services":true,"clients":["#
            + [row("gc-a-1000", "never"), row("gc-b-1000", "sometimes"), row("logger", "always")].joined(separator: ",") + "]}\n"
        try store.save(Array(text.utf8))
        let loaded = try #require(StateKeeper(store: store).load())
        #expect(loaded.clients.map(\.name) == ["gc-a-1000", "logger"])
        #expect(loaded.client("gc-a-1000")?.status == .never)
        let entries = try dir.entries()
        #expect(entries.contains { $0.hasPrefix("state.json.corrupt-") } && !entries.contains("state.json"), "\(entries)")
    }
}
