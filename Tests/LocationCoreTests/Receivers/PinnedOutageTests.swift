import Testing
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// A pinned receiver that goes silent is an outage for its client (docs/sources.md, "Several
/// receivers"): `location-unknown` once per outage after `failover` seconds, `status` tells the
/// truth, every fix not delivered is counted, and `best` clients go on while any receiver reports.
@Suite struct PinnedOutageTests {
    typealias E = TestEngine
    typealias S = SeveralReceiversEngineTests

    /// One second of input: which receivers give a usable fix (`mode` for B's report when not usable).
    struct Second {
        var a = true
        var b: FixMode? = .threeD
    }

    /// A client `best` and a client `pinned` to `receiver`, both updating unless told otherwise.
    static func engine(pinnedTo receiver: String = "B", updating: Bool = true) -> Engine {
        var pinned = E.client("pinned", authorization: .always, updating: updating)
        pinned.receiver = receiver
        return E.engine([E.client("best", authorization: .always), pinned])
    }

    /// Feeds seconds `from`..<`seconds` (A's fix, then B's), ticking once a second; returns every effect with its second.
    static func run(_ engine: inout Engine, from: Int = 0, seconds: Int, _ second: (Int) -> Second) -> [(at: Int, effect: Effect)] {
        var out: [(Int, Effect)] = []
        for t in from..<seconds {
            let now = E.t0 + Double(t)
            let s = second(t)
            var fixes: [Fix] = []
            if s.a { fixes.append(S.fix(Double(t), "A", error: 3)) }
            if let mode = s.b {
                var b = S.fix(Double(t), "B", error: 20, north: 30)
                b.mode = mode
                fixes.append(b)
            }
            for f in fixes { out += engine.handle(.fix(f), now: now).map { (t, $0) } }
            out += engine.handle(.tick, now: now + 0.5).map { (t, $0) }
        }
        return out
    }

    static func unknown(_ effects: [(at: Int, effect: Effect)], _ client: String) -> [(at: Int, message: String)] {
        effects.compactMap { e in
            if case .event(.error(client, .locationUnknown, let message)) = e.effect { (e.at, message) } else { nil }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var pinnedTo = "B"
        var updating = true
        /// Seconds in which B gives a usable fix (`nil`: B reports "no fix" instead; absent: silent).
        var b: @Sendable (Int) -> FixMode? = { _ in .threeD }
        /// The seconds at which the pinned client is told `location-unknown`, and the start of each message.
        var told: [(at: Int, message: String)]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "its receiver reports throughout", told: []),
        Case(
            name: "silent after 5 s: told once, failover seconds after its last fix", b: { $0 < 5 ? .threeD : nil },
            told: [(7, "its receiver B (receiver = B) has given no usable fix for 3 s")]),
        Case(
            name: "reporting no fix after 5 s: the same as silent", b: { $0 < 5 ? .threeD : .noFix },
            told: [(7, "its receiver B (receiver = B) has given no usable fix for 3 s")]),
        Case(
            name: "back at 10 s, silent again after 14 s: told once per outage",
            b: { $0 < 5 || (10...14).contains($0) ? .threeD : nil },
            told: [(7, "its receiver B (receiver = B) has given no usable fix for 3 s"), (17, "its receiver B (receiver = B) has given no usable fix for 3 s")]),
        Case(
            name: "pinned to a receiver that never reports", pinnedTo: "C",
            told: [(3, "its receiver C (receiver = C) has not reported for 3 s; receivers reporting: A, B")]),
        Case(name: "not updating: nothing to tell", updating: false, b: { $0 < 5 ? .threeD : nil }, told: []),
    ]

    @Test(arguments: cases)
    func aPinnedClientIsToldOfItsReceiversOutageOnceAndTheBestClientNever(_ c: Case) {
        var engine = Self.engine(pinnedTo: c.pinnedTo, updating: c.updating)
        let effects = Self.run(&engine, seconds: 20) { t in Second(a: true, b: c.b(t)) }
        let told = Self.unknown(effects, "pinned")
        #expect(told.map(\.at) == c.told.map(\.at), "\(told)")
        #expect(zip(told, c.told).allSatisfy { $0.message == $1.message }, "\(told)")
        #expect(Self.unknown(effects, "best").isEmpty, "A reports throughout")
    }

    /// The failover is an outage timer (`outageTimer`, which the daemon's readers carry in their
    /// wait), never early while the receiver's fixes come, and no client timer (which the core's
    /// tick is set by): each fix of B puts it off without a tick, and a tick when it is up starts
    /// the pinned client's outage.
    @Test func aPinnedFailoverIsAnOutageTimerEachFixOfItsReceiverPutsOffWithoutATick() {
        var engine = Self.engine()
        let failover = 3.0
        for t in 0..<6 {
            let now = E.t0 + Double(t)
            _ = engine.handle(.fix(S.fix(Double(t), "A", error: 3)), now: now)
            _ = engine.handle(.fix(S.fix(Double(t), "B", error: 20, north: 30)), now: now)
            #expect(engine.clientTimer == .infinity, "second \(t): no client timer")
            #expect(engine.outageTimer == now + failover, "second \(t): B's failover, before A's 5 s")
        }
        // B falls silent after second 5; A goes on, moving the 5 s, not B's failover.
        var told: [(at: Int, effect: Effect)] = []
        let due = E.t0 + 5 + failover
        for t in 6..<10 {
            let now = E.t0 + Double(t)
            // The reader's wait runs out at B's failover: the tick comes then.
            if now == due { told += engine.handle(.tick, now: now).map { (t, $0) } }
            told += engine.handle(.fix(S.fix(Double(t), "A", error: 3)), now: now).map { (t, $0) }
            #expect(engine.outageTimer == (now < due ? due : now + Engine.outageDelay), "second \(t)")
        }
        #expect(Self.unknown(told, "pinned").map(\.at) == [8], "\(Self.unknown(told, "pinned"))")
        #expect(Self.unknown(told, "best").isEmpty)
    }

    @Test func statusSaysTheOutageWithNumbersAndDeliveringIsFalse() throws {
        var engine = Self.engine()
        _ = Self.run(&engine, seconds: 9) { t in Second(a: true, b: t < 5 ? .threeD : nil) }
        // B's last delivery was 4 s ago (within the 5 s "delivering" window), but B has been silent for 4 s.
        let status = engine.status(now: E.t0 + 8)
        let pinned = try #require(status.clients.first { $0.authorization.client == "pinned" })
        #expect(!pinned.delivering)
        #expect(pinned.eligible, "it would take its receiver's next fix")
        #expect(pinned.reason == "its receiver B (receiver = B) has given no usable fix for 4 s", "\(pinned.reason)")
        #expect(status.clients.first { $0.authorization.client == "best" }?.delivering == true)
        // Before failover seconds the client is still delivering.
        var early = Self.engine()
        _ = Self.run(&early, seconds: 6) { t in Second(a: true, b: t < 5 ? .threeD : nil) }
        #expect(early.status(now: E.t0 + 6).clients.first { $0.authorization.client == "pinned" }?.delivering == true)
    }

    /// #32 with several sources: a pinned receiver whose own source is a file followed past its end
    /// is not in an outage while the other source goes on; status says where it is.
    @Test func aPinnedReceiverAtTheEndOfItsFileIsNoOutage() throws {
        var engine = Self.engine()
        _ = Self.run(&engine, seconds: 5) { _ in Second(a: true, b: .threeD) }
        engine.setReceiversAtEndOfFile(["B"], now: E.t0 + 5)
        let effects = Self.run(&engine, from: 5, seconds: 20) { _ in Second(a: true, b: nil) }
        #expect(Self.unknown(effects, "pinned").isEmpty, "\(Self.unknown(effects, "pinned"))")
        let pinned = try #require(engine.status(now: E.t0 + 20).clients.first { $0.authorization.client == "pinned" })
        #expect(pinned.reason == "the source is at the end of its file, following it; last usable fix 16 s ago", "\(pinned.reason)")
        // The file grows again: B's fixes are delivered, and a later silence is an outage again.
        engine.setReceiversAtEndOfFile([], now: E.t0 + 20)
        let again = Self.run(&engine, from: 20, seconds: 30) { t in Second(a: true, b: t < 22 ? .threeD : nil) }
        #expect(Self.unknown(again, "pinned").map(\.at) == [24], "\(Self.unknown(again, "pinned"))")
    }

    @Test func aRecoveryDeliversAgainAndClearsTheOutage() throws {
        var engine = Self.engine()
        let effects = Self.run(&engine, seconds: 16) { t in Second(a: true, b: t < 5 || t >= 12 ? .threeD : nil) }
        let delivered = effects.compactMap { e -> Int? in
            if case .deliver(let d) = e.effect, d.client == "pinned" { e.at } else { nil }
        }
        #expect(delivered == [0, 1, 2, 3, 4, 12, 13, 14, 15])
        let pinned = try #require(engine.status(now: E.t0 + 15.5).clients.first { $0.authorization.client == "pinned" })
        #expect(pinned.delivering)
        #expect(pinned.reason == "delivering")
    }

    @Test func everyFixNotDeliveredIsCountedWithOtherReceiverForTheOnesItDoesNotFollow() throws {
        var engine = Self.engine()
        _ = Self.run(&engine, seconds: 10) { t in Second(a: true, b: t < 5 ? .threeD : nil) }
        let status = engine.status(now: E.t0 + 10)
        let pinned = try #require(status.clients.first { $0.authorization.client == "pinned" })
        let best = try #require(status.clients.first { $0.authorization.client == "best" })
        // 10 fixes of A and 5 of B: each client either got a fix or counted it.
        #expect(pinned.drops[.otherReceiver] == 10)
        #expect(pinned.deliveredCount == 5)
        #expect(best.drops[.otherReceiver] == 5)
        #expect(best.deliveredCount == 10)
        #expect(pinned.deliveredCount + pinned.drops.total == 15)
        #expect(best.deliveredCount + best.drops.total == 15)
    }

    @Test func theBestClientGoesOnWhenItsReceiverReportsNoFixWhileAnotherReports() {
        var engine = E.engine([E.client("best", authorization: .always)])
        var effects = Self.run(&engine, seconds: 5) { _ in Second(a: true, b: .threeD) }
        // A, followed, reports "no fix" from second 5 on; B goes on.
        for t in 5..<15 {
            var a = S.fix(Double(t), "A", error: 3)
            a.mode = .noFix
            for f in [a, S.fix(Double(t), "B", error: 20, north: 30)] {
                effects += engine.handle(.fix(f), now: E.t0 + Double(t)).map { (t, $0) }
            }
            effects += engine.handle(.tick, now: E.t0 + Double(t) + 0.5).map { (t, $0) }
        }
        #expect(Self.unknown(effects, "best").isEmpty)
        let fromB = effects.compactMap { e -> Int? in
            if case .deliver(let d) = e.effect, d.fix.device == "B" { e.at } else { nil }
        }
        #expect(fromB.first == 7, "B takes over failover seconds after A's last usable fix")
    }

    @Test func pinningAnotherReceiverOnReloadEndsTheOutageOfTheOldOne() throws {
        var engine = Self.engine()
        let before = Self.run(&engine, seconds: 10) { t in Second(a: true, b: t < 5 ? .threeD : nil) }
        #expect(Self.unknown(before, "pinned").map(\.at) == [7])
        var settings = engine.settings
        settings.clients[1].receiver = "A"
        _ = engine.handle(settings, now: E.t0 + 10)
        var after = Self.run(&engine, from: 10, seconds: 20) { _ in Second(a: true, b: nil) }
        #expect(after.contains { if case .deliver(let d) = $0.effect { d.client == "pinned" && d.fix.device == "A" } else { false } })
        #expect(engine.status(now: E.t0 + 19.5).clients.first { $0.authorization.client == "pinned" }?.delivering == true)
        // A stops too: a new outage, told again.
        for t in 20..<25 { after += engine.handle(.tick, now: E.t0 + Double(t)).map { (t, $0) } }
        #expect(Self.unknown(after, "pinned").map(\.at) == [22])
    }

    @Test func ticksAloneStartThePinnedOutageWhenNoReceiverReports() {
        var engine = Self.engine()
        var effects = Self.run(&engine, seconds: 2) { _ in Second(a: true, b: .threeD) }
        for t in 2..<10 { effects += engine.handle(.tick, now: E.t0 + Double(t)).map { (t, $0) } }
        #expect(Self.unknown(effects, "pinned").map(\.at) == [4])
        #expect(Self.unknown(effects, "best").map(\.at) == [6], "the source-wide 5 s outage")
    }
}
