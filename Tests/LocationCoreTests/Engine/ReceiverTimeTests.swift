import Foundation
import Testing
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// Delivery step 4 (docs/authorization.md §4) as issue #8 rewrote it (docs/authorization.md "Receiver
/// time"): the same epoch is not delivered twice, an older fix starts a new
/// time base and is delivered, and every timer runs on the monotonic `now`.
@Suite struct ReceiverTimeTests {
    typealias E = TestEngine
    static let year = 365 * 86_400.0

    /// Feeds fix time `seconds` (after t0) at monotonic `now` (after t0).
    static func feed(_ engine: inout Engine, _ fix: Fix, at now: Double) -> [Effect] {
        engine.handle(.fix(fix), now: E.t0 + now)
    }

    static func jumps(_ effects: [Effect]) -> [TimeJump] {
        effects.compactMap { if case .event(.timeJump(let j)) = $0 { j } else { nil } }
    }

    @Test func theSameEpochAgainIsNotDeliveredAndIsCounted() {
        var engine = E.engine(E.client(authorization: .always))
        #expect(Self.feed(&engine, E.fix(1), at: 1).delivered().count == 1)
        // gpsd resending its last TPV after a reconnect.
        let again = Self.feed(&engine, E.fix(1), at: 2)
        #expect(again.deliveries.isEmpty)
        #expect(Self.jumps(again).isEmpty)
        #expect(Self.feed(&engine, E.fix(2), at: 3).delivered().count == 1)
        let status = engine.status(now: E.t0 + 3)
        #expect(status.clients[0].drops[.sameEpoch] == 1)
        #expect(status.timeJumps == 0)
    }

    @Test func anOlderFixStartsANewTimeBaseIsDeliveredAndReportedOnce() throws {
        var engine = E.engine(E.client(authorization: .always))
        for s in 0..<10 { _ = Self.feed(&engine, E.fix(Double(s)), at: Double(s)) }
        // The clock steps back 0.302 s (as telit-he910 does).
        let back = Self.feed(&engine, E.fix(8.698), at: 10)
        #expect(back.delivered().count == 1)
        let jump = try #require(Self.jumps(back).first)
        #expect(Self.jumps(back).count == 1)
        #expect(abs(jump.seconds - 0.302) < 1e-6)
        #expect(jump.size == "0.302 s")
        #expect(jump.sentence.hasPrefix("receiver time went back 0.302 s"))
        // The new base goes on without another report.
        for s in 1...5 {
            let effects = Self.feed(&engine, E.fix(8.698 + Double(s)), at: 10 + Double(s))
            #expect(effects.delivered().count == 1)
            #expect(Self.jumps(effects).isEmpty)
        }
        let status = engine.status(now: E.t0 + 15)
        #expect(status.timeJumps == 1)
        #expect(status.lastTimeJump?.to == E.t0 + 8.698)
        #expect(status.lastTimeJumpAge == 5)
        #expect(status.clients[0].drops.total == 0)
        #expect(status.clients[0].deliveredCount == 16)
    }

    @Test func aRepeatInTheNewTimeBaseIsTheSameEpoch() {
        var engine = E.engine(E.client(authorization: .always))
        _ = Self.feed(&engine, E.fix(100), at: 0)
        #expect(Self.feed(&engine, E.fix(50), at: 1).delivered().count == 1)
        #expect(Self.feed(&engine, E.fix(50), at: 2).deliveries.isEmpty)
        // Back to 100 from 50 is forward: the old base's epoch is a new one here.
        #expect(Self.feed(&engine, E.fix(100), at: 3).delivered().count == 1)
    }

    @Test func aFixFarAheadIsDeliveredAndComingBackIsANewBase() {
        var engine = E.engine(E.client(authorization: .always))
        var delivered = 0
        var jumps: [TimeJump] = []
        // A walk of 136 epochs, the 31st dated a year ahead (a receiver glitch).
        for s in 0..<136 {
            let time = s == 30 ? Double(s) + Self.year : Double(s)
            let effects = Self.feed(&engine, E.fix(time, north: Double(s)), at: Double(s))
            delivered += effects.delivered().count
            jumps += Self.jumps(effects)
        }
        #expect(delivered == 136)
        #expect(jumps.count == 1)
        #expect(jumps.first.map { abs($0.seconds - (Self.year - 1)) < 1e-6 } == true)
    }

    @Test func theDistanceFilterRunContinuesAcrossANewTimeBase() {
        var engine = E.engine(E.client(filter: 100, authorization: .always))
        #expect(Self.feed(&engine, E.fix(10), at: 0).delivered().count == 1)
        // 10 m away, older: a new base, but the run (and its anchor) goes on.
        let back = Self.feed(&engine, E.fix(5, north: 10), at: 1)
        #expect(back.deliveries.isEmpty)
        #expect(Self.jumps(back).count == 1)
        #expect(Self.feed(&engine, E.fix(6, north: 150), at: 2).delivered().count == 1)
        #expect(engine.status(now: E.t0 + 2).clients[0].drops[.distanceFilter] == 1)
    }

    @Test func locateTimeoutAndAllowOnceRunOnTheMonotonicClockNotOnFixTimes() {
        var engine = E.engine(E.client(authorization: .ask, updating: false, inUse: true, onceGrace: 60, locateTimeout: 30))
        _ = engine.run(.request(client: "app", kind: .whileUsing), at: 0)
        _ = engine.run(.answer(client: "app", answer: .allowOnce), at: 0)
        #expect(engine.auth().once)
        _ = engine.run(.session(client: "app", inUse: false), at: 0)
        // A fix dated a year ahead does not end the grace (now is 10 s later).
        _ = Self.feed(&engine, E.fix(Self.year), at: 10)
        #expect(engine.auth().once)
        _ = engine.tick(at: 59)
        #expect(engine.auth().once)
        _ = engine.tick(at: 60)
        #expect(!engine.auth().once)

        var locating = E.engine(E.client(accuracy: .tenMeters, authorization: .always, updating: false, locateTimeout: 30))
        _ = locating.run(.locate(client: "app", timeout: nil), at: 0)
        // Fixes dated in the past do not bring the timeout forward; they fail the gate.
        let early = Self.feed(&locating, E.fix(-Self.year, error: 50), at: 20)
        #expect(early.errors().isEmpty)
        #expect(locating.tick(at: 30).errors() == [.locationUnknown])
    }

    @Test func reducedIntervalRunsOnTheMonotonicClock() {
        var engine = E.engine(E.client(precise: false, authorization: .always, reducedInterval: 900))
        #expect(Self.feed(&engine, E.fix(0), at: 0).delivered().count == 1)
        // A year ahead in fix time, one second later on the clock: still inside the interval.
        #expect(Self.feed(&engine, E.fix(Self.year), at: 1).deliveries.isEmpty)
        // Back on the old time line: a new base, still inside the interval, not blocked for a year after.
        #expect(Self.feed(&engine, E.fix(2), at: 2).deliveries.isEmpty)
        #expect(Self.feed(&engine, E.fix(899), at: 899).deliveries.isEmpty)
        #expect(Self.feed(&engine, E.fix(900), at: 900).delivered().count == 1)
        let status = engine.status(now: E.t0 + 901)
        #expect(status.clients[0].drops[.reducedRate] == 3)
    }

    /// A reduced client delivered at wall time `deliveredUTC`, saved, restarted with its engine's wall
    /// clock at `restartUTC`: the monotonic seconds after the restart until it gets its next fix.
    static func waitAfterRestart(deliveredUTC: Double, restartUTC: Double) throws -> Double? {
        let client = E.client(precise: false, authorization: .always, reducedInterval: 900)
        var engine = E.engine([client])
        // The daemon's monotonic clock starts near 0; the offset maps it to UTC.
        engine.wallClockOffset = deliveredUTC - 100
        #expect(engine.handle(.fix(E.fix(0)), now: 100).delivered().count == 1)
        #expect(engine.savedState.client("app")?.reduced.lastDelivery == deliveredUTC)
        let saved = try SavedState(json: JSONValue.parse(Array(engine.savedState.json.serialized.utf8)))
        var restarted = E.engine([client], saved: saved, seed: 2)
        restarted.wallClockOffset = restartUTC - 5
        for wait in stride(from: 0.0, through: 2000, by: 1) {
            let fix = E.fix(10_000 + wait)
            if !restarted.handle(.fix(fix), now: 5 + wait).delivered().isEmpty { return wait }
        }
        return nil
    }

    @Test func savedReducedDeadlineIsNeitherEarlyNorAYearLong() throws {
        let t = E.t0
        // Restarted 300 s after the delivery: 600 s still to wait.
        #expect(try Self.waitAfterRestart(deliveredUTC: t, restartUTC: t + 300) == 600)
        // Restarted a day later: at once.
        #expect(try Self.waitAfterRestart(deliveredUTC: t, restartUTC: t + 86_400) == 0)
        // Saved a year ahead (a wall clock set wrong then): one interval, never a year.
        #expect(try Self.waitAfterRestart(deliveredUTC: t + Self.year, restartUTC: t) == 900)
        // A board without an RTC booting in 1970: one interval.
        #expect(try Self.waitAfterRestart(deliveredUTC: t, restartUTC: 0) == 900)
    }

    @Test func everyReasonIsCountedPerClient() {
        var engine = E.engine([
            E.client("ask"), E.client("bg", authorization: .whileUsing, inUse: false),
            E.client("stopped", authorization: .always, updating: false),
            E.client("gated", accuracy: .tenMeters, authorization: .always),
            E.client("filtered", filter: 1000, authorization: .always), E.client("ok", authorization: .always),
        ])
        _ = Self.feed(&engine, E.fix(0, error: 27), at: 0)
        _ = Self.feed(&engine, E.fix(1, error: 11), at: 1)
        _ = Self.feed(&engine, E.fix(2, mode: .noFix), at: 2)
        _ = engine.run(.services(on: false), at: 3)
        _ = Self.feed(&engine, E.fix(3), at: 3)
        let clients = engine.status(now: E.t0 + 3).clients
        func drops(_ i: Int) -> [DropReason: Int] {
            Dictionary(uniqueKeysWithValues: clients[i].drops.nonZero.map { ($0.reason, $0.count) })
        }
        #expect(drops(0) == [.notAuthorized: 3, .servicesOff: 1])
        #expect(drops(1) == [.notInUse: 3, .servicesOff: 1])
        #expect(drops(2) == [.notUpdating: 3, .servicesOff: 1])
        #expect(drops(3) == [.accuracyGate: 2, .unusable: 1, .servicesOff: 1])
        #expect(drops(4) == [.distanceFilter: 1, .unusable: 1, .servicesOff: 1])
        #expect(drops(5) == [.unusable: 1, .servicesOff: 1])
        #expect(clients[5].deliveredCount == 2)
        #expect(clients[4].drops.summary == "services off 1, unusable 1, distance filter 1")
    }

    @Test func deliveringMeansDeliveredWithinTheWindow() {
        var engine = E.engine(E.client(authorization: .always))
        #expect(engine.status(now: E.t0).clients[0].delivering == false)
        #expect(engine.status(now: E.t0).clients[0].reason == "waiting for the first fix from the receiver")
        _ = Self.feed(&engine, E.fix(0), at: 0)
        #expect(engine.status(now: E.t0 + Engine.deliveringWindow).clients[0].delivering)
        #expect(engine.status(now: E.t0 + Engine.deliveringWindow).clients[0].reason == "delivering")
        let late = engine.status(now: E.t0 + 12).clients[0]
        #expect(!late.delivering)
        #expect(late.lastDeliveredAge == 12)
        // 12 s without any fix: the engine's 5 s outage has started.
        #expect(late.reason == "no usable fix for 12 s")
        #expect(late.suggestion == nil)
    }

    @Test func statusNamesTheAccuracyGateWithNumbers() {
        var engine = E.engine(E.client(accuracy: .tenMeters, authorization: .always))
        for s in 0..<4 { _ = Self.feed(&engine, E.fix(Double(s), error: 11 + Double(s) * 5), at: Double(s)) }
        let c = engine.status(now: E.t0 + 3).clients[0]
        #expect(!c.delivering)
        #expect(c.reason == "fixes are ±26.0 m, desired accuracy is 10 m (ten-meters); 4 held back")
    }

    @Test func statusDuringAnOutageHasNoCommand() {
        var engine = E.engine(E.client(authorization: .always))
        _ = Self.feed(&engine, E.fix(0), at: 0)
        _ = Self.feed(&engine, E.fix(1, mode: .noFix), at: 1)
        let c = engine.status(now: E.t0 + 13).clients[0]
        #expect(!c.delivering)
        #expect(c.reason == "no usable fix for 13 s")
        #expect(c.suggestion == nil)
        _ = engine.run(.services(on: false), at: 14)
        let off = engine.status(now: E.t0 + 14).clients[0]
        #expect(off.suggestion == .services(on: true))
    }

    @Test func statusOfAReducedClientWaitingForItsInterval() {
        var engine = E.engine(E.client(precise: false, authorization: .always, reducedInterval: 900))
        _ = Self.feed(&engine, E.fix(0), at: 0)
        for s in 1...60 { _ = Self.feed(&engine, E.fix(Double(s)), at: Double(s)) }
        let c = engine.status(now: E.t0 + 60).clients[0]
        #expect(!c.delivering)
        #expect(c.reason == "reduced accuracy: a 2000 m grid at most every 900 s; the next fix in 14 min")
        #expect(c.suggestion == .accuracy(client: "app", full: true))
    }

    @Test func aHeldBackUpgradePromptSaysItWillNotComeAgain() throws {
        var engine = E.engine(E.client(inUse: true))
        _ = engine.run(.request(client: "app", kind: .always))
        _ = engine.run(.answer(client: "app", answer: .allowWhileUsing))
        _ = engine.run(.session(client: "app", inUse: false), at: 1)
        #expect(Self.feed(&engine, E.fix(2), at: 2).openedPrompts.count == 1)
        // A restart drops the open prompt; the saved state remembers it was shown.
        let saved = try SavedState(json: JSONValue.parse(Array(engine.savedState.json.serialized.utf8)))
        var restarted = E.engine([E.client(inUse: false)], saved: saved)
        #expect(Self.feed(&restarted, E.fix(3), at: 3).openedPrompts.isEmpty)
        let c = restarted.status(now: E.t0 + 4).clients[0]
        #expect(c.authorization.provisional)
        #expect(c.reason.contains("the upgrade prompt was already shown and will not come again"))
        #expect(c.reason.hasSuffix("(`locationctl reset app` shows it again)"), "how to reset it: \(c.reason)")
        #expect(c.suggestion == .authorize(client: "app", status: .always))
        #expect(c.drops[.notInUse] == 1)
    }
}
