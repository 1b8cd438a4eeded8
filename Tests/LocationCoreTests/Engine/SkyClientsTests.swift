import Testing

@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// Who may see a receiver's satellites (#32 item 4, docs/authorization.md §9): a client
/// getting full-accuracy fixes from that receiver lately; never a reduced one, one not
/// authorized or not updating, with Location Services off, or from another receiver.
@Suite struct SkyClientsTests {
    static func fix(_ seconds: Double, _ device: String) -> Fix {
        var f = TestEngine.fix(seconds)
        f.device = device
        return f
    }

    /// "full" and "coarse" (reduced), both always; "pinned" follows receiver B.
    static func engine() -> Engine {
        var pinned = TestEngine.client("pinned", authorization: .always)
        pinned.receiver = "B"
        var engine = TestEngine.engine([
            TestEngine.client("full", authorization: .always), TestEngine.client("coarse", authorization: .always), pinned,
        ])
        _ = engine.run(.accuracy(client: "coarse", full: false))
        return engine
    }

    static func feed(_ engine: inout Engine, through seconds: Int) {
        for t in 0...seconds {
            for device in ["A", "B"] { _ = engine.handle(.fix(Self.fix(Double(t), device)), now: TestEngine.t0 + Double(t)) }
        }
    }

    @Test func onlyAFullAccuracyClientOfThatReceiverSeesItsSky() {
        var engine = Self.engine()
        #expect(engine.skyClients(device: "A", now: TestEngine.t0).isEmpty, "no fix delivered yet")
        Self.feed(&engine, through: 3)
        let now = TestEngine.t0 + 3
        #expect(engine.skyClients(device: "A", now: now) == ["full"], "coarse is reduced; pinned follows B")
        #expect(engine.skyClients(device: "B", now: now) == ["pinned"])
        #expect(engine.skyClients(device: "C", now: now).isEmpty, "a receiver that gave no fix")
    }

    @Test func theSkyStopsWithTheFixes() {
        var engine = Self.engine()
        Self.feed(&engine, through: 3)
        #expect(engine.skyClients(device: "A", now: TestEngine.t0 + 3 + Engine.skyWindow + 1).isEmpty, "no fix for longer than the window")
        _ = engine.run(.accuracy(client: "full", full: false), at: 3)
        #expect(engine.skyClients(device: "A", now: TestEngine.t0 + 3).isEmpty, "reduced now")
    }

    @Test(arguments: [Command.services(on: false), .authorize(client: "full", status: .never), .stop(client: "full")])
    func noSkyOnceTheClientMayNotGetFixes(_ command: Command) {
        var engine = Self.engine()
        Self.feed(&engine, through: 3)
        _ = engine.run(command, at: 3)
        #expect(!engine.skyClients(device: "A", now: TestEngine.t0 + 3).contains("full"), "\(command)")
    }
}
