import Testing
@testable import LocationConfig
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// The engine with two receivers (docs/sources.md, "Several receivers"): `best` clients get one
/// track from the chosen receiver, pinned clients their own receiver's, no epoch twice, and each
/// receiver's clock is its own.
@Suite struct SeveralReceiversEngineTests {
    static func fix(_ seconds: Double, _ device: String, error: Double?, north: Double = 0) -> Fix {
        var f = TestEngine.fix(seconds, north: north, error: error)
        f.device = device
        return f
    }

    static func delivered(_ effects: [Effect]) -> [(client: String, device: String?)] {
        effects.compactMap { if case .deliver(let d) = $0 { (d.client, d.fix.device) } else { nil } }
    }

    static func clients() -> [ClientSettings] {
        var pinned = TestEngine.client("poor-only", authorization: .always)
        pinned.receiver = "B"
        return [TestEngine.client("best", authorization: .always), pinned]
    }

    @Test func bestClientsFollowOneReceiverAndPinnedClientsTheirOwn() {
        var engine = TestEngine.engine(Self.clients())
        var best: [String?] = []
        var pinned: [String?] = []
        for t in 0..<20 {
            let now = TestEngine.t0 + Double(t)
            for f in [Self.fix(Double(t), "A", error: 3), Self.fix(Double(t), "B", error: 20, north: 30)] {
                for d in Self.delivered(engine.handle(.fix(f), now: now)) {
                    if d.client == "best" { best.append(d.device) } else { pinned.append(d.device) }
                }
            }
        }
        #expect(best == Array(repeating: "A", count: 20))
        #expect(pinned == Array(repeating: "B", count: 20))
        let status = engine.status(now: TestEngine.t0 + 20)
        #expect(status.receivers.map(\.device) == ["A", "B"])
        #expect(status.receivers.map(\.state) == [.followed, .standby])
        #expect(status.receivers.map(\.clients) == [["best"], ["poor-only"]])
    }

    @Test func failoverAfterThreeSecondsWithoutATimeJumpOrAnEpochTwice() {
        var engine = TestEngine.engine(Self.clients())
        var log: [(time: Double, device: String?)] = []
        var events: [Event] = []
        for t in 0..<20 {
            let now = TestEngine.t0 + Double(t)
            // B's clock is 2 s behind A's; A stops after 10 s.
            var fixes = [Self.fix(Double(t) - 2, "B", error: 20, north: 30)]
            if t < 10 { fixes.insert(Self.fix(Double(t), "A", error: 3), at: 0) }
            for f in fixes {
                let effects = engine.handle(.fix(f), now: now)
                events += effects.compactMap { if case .event(let e) = $0 { e } else { nil } }
                for case .deliver(let d) in effects where d.client == "best" { log.append((d.fix.time ?? 0, d.fix.device)) }
            }
        }
        let devices = log.map(\.device)
        #expect(devices.prefix(10).allSatisfy { $0 == "A" })
        #expect(devices.suffix(7).allSatisfy { $0 == "B" })
        #expect(zip(devices, devices.dropFirst()).filter { $0 != $1 }.count == 1)
        #expect(events.contains(.receiver(.init(from: "A", to: "B", reason: .silent(seconds: 3)))))
        #expect(!events.contains { if case .timeJump = $0 { true } else { false } }, "B's own clock is no jump")
        #expect(engine.status(now: TestEngine.t0 + 20).timeJumps == 0)
        #expect(!events.contains { if case .error(_, .locationUnknown, _) = $0 { true } else { false } })
    }

    @Test func aPinnedClientWhoseReceiverIsSilentSaysSoInStatus() throws {
        var engine = TestEngine.engine(Self.clients())
        for t in 0..<20 {
            var fixes = [Self.fix(Double(t), "A", error: 3)]
            if t < 5 { fixes.append(Self.fix(Double(t), "B", error: 20)) }
            for f in fixes { _ = engine.handle(.fix(f), now: TestEngine.t0 + Double(t)) }
        }
        let status = engine.status(now: TestEngine.t0 + 20)
        let pinned = try #require(status.clients.first { $0.authorization.client == "poor-only" })
        #expect(!pinned.delivering)
        #expect(pinned.reason == "its receiver B (receiver = B) has given no usable fix for 16 s", "\(pinned.reason)")
        #expect(status.clients.first { $0.authorization.client == "best" }?.delivering == true)
        #expect(status.receivers.first { $0.device == "B" }?.state == .silent)
    }

    @Test func theSameEpochFromAnotherReceiverIsNotLoggedTwice() {
        var engine = TestEngine.engine([TestEngine.client("best", authorization: .always)])
        _ = engine.handle(.fix(Self.fix(0, "A", error: 3)), now: TestEngine.t0)
        // A silent; B reports the same epoch A gave last, then the next one.
        let same = Self.delivered(engine.handle(.fix(Self.fix(0, "B", error: 20)), now: TestEngine.t0 + 3))
        let next = Self.delivered(engine.handle(.fix(Self.fix(1, "B", error: 20)), now: TestEngine.t0 + 4))
        #expect(same.isEmpty)
        #expect(next.map(\.device) == ["B"])
    }
}
