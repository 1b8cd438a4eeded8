import Foundation
import Testing
@testable import LocationConfig
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// Random input sequences with fixed seeds: the engine never crashes and its
/// invariants hold after every step.
@Suite struct EnginePropertyTests {
    typealias E = TestEngine

    static let names = ["logger", "nav", "coarse", "bg"]

    static func clientSettings(restrictedGrid: Bool = false) -> [ClientSettings] {
        [
            E.client("logger", filter: 5, accuracy: .kilometer, authorization: .ask, updating: true, inUse: true),
            E.client("nav", filter: nil, accuracy: .tenMeters, usageAlways: nil, authorization: .whileUsing, inUse: false, onceGrace: 10),
            E.client("coarse", filter: 50, precise: false, authorization: .always, reducedGrid: 500, reducedInterval: 120),
            E.client("bg", filter: 20, usage: nil, authorization: .always, updating: false, locateTimeout: 7),
        ]
    }

    struct Driver {
        var random: Xoshiro256
        var now = E.t0
        var fixTime = E.t0
        var north = 0.0
        var east = 0.0

        mutating func uniform() -> Double { Double(random.next() >> 11) * 0x1p-53 }
        mutating func int(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
        mutating func chance(_ p: Double) -> Bool { uniform() < p }

        mutating func fix() -> Fix {
            now += pick([0, 0.2, 1, 1, 1, 2, 7, 30, 400])
            fixTime = chance(0.03) ? fixTime - 1 : now
            north += (uniform() - 0.5) * pick([2, 10, 60, 3000])
            east += (uniform() - 0.5) * pick([2, 10, 60, 3000])
            var f = E.fix(fixTime - E.t0, north: north, east: east, error: pick([nil, 3, 8, 40, 2000]))
            switch int(20) {
            case 0: f.mode = .noFix
            case 1: f.mode = .unknown
            case 2: f.time = nil
            case 3: f.latitude = .nan
            case 4: f.longitude = 400
            case 5: f.mode = .twoD
            default: break
            }
            return f
        }

        mutating func command() -> Command {
            let client = chance(0.05) ? "ghost" : pick(EnginePropertyTests.names)
            switch int(12) {
            case 0: return .services(on: chance(0.7))
            case 1: return .authorize(client: client, status: pick(AuthorizationStatus.allCases))
            case 2: return .accuracy(client: client, full: chance(0.5))
            case 3: return .request(client: client, kind: pick(RequestKind.allCases))
            case 4: return .answer(client: client, answer: pick(Answer.allCases), precise: pick([nil, nil, true, false]))
            case 5: return .share(client: client)
            case 6: return .requestFullAccuracy(client: client, purpose: pick(["survey", "survey", "nope"]))
            case 7: return .session(client: client, inUse: chance(0.5))
            case 8: return .start(client: client)
            case 9: return .stop(client: client)
            case 10: return .reset(client: client)
            default: return .locate(client: client, timeout: pick([nil, 1, 5, -1, 60]))
            }
        }
    }

    /// Checks every invariant of one step's effects against the state before and after.
    static func check(
        _ effects: [Effect], before: [ClientAuthorization], savedBefore: SavedState, engine: Engine, now: Double,
        lastDelivered: inout [String: Double], lastReduced: inout [String: (fix: Fix, at: Double)], step: Int
    ) {
        let status = engine.status(now: now)
        let byName = Dictionary(uniqueKeysWithValues: status.clients.map { ($0.authorization.client, $0) })
        for delivery in effects.deliveries {
            guard let client = byName[delivery.client] else {
                Issue.record("step \(step): delivery to unknown client \(delivery.client)")
                continue
            }
            let auth = client.authorization
            #expect(status.services, "step \(step): delivered while services are off")
            #expect(auth.status == .always || auth.status == .whileUsing, "step \(step): delivered to \(auth.status)")
            if auth.status == .whileUsing || auth.provisional {
                #expect(client.inUse, "step \(step): while-using client out of use got a fix")
            }
            let fix = delivery.fix
            #expect(fix.isUsable, "step \(step): unusable fix delivered")
            let time = fix.time ?? -.infinity
            // A reduced fix within the interval is only ever the coarse fix already delivered in it (a locate's answer).
            let repeatsLastReduced = delivery.accuracy == .reduced && lastReduced[delivery.client]?.fix == fix
            // Within a time base delivered epochs only move forward; a jump back starts a new base.
            if let last = lastDelivered[delivery.client], !repeatsLastReduced, !effects.contains(where: Self.isTimeJump) {
                #expect(time > last, "step \(step): the same epoch or an older one delivered without a new time base")
            }
            if !repeatsLastReduced { lastDelivered[delivery.client] = time }
            #expect((delivery.accuracy == .full) == auth.accuracy.isFull)
            if delivery.accuracy == .reduced {
                #expect(fix.altitude == nil && fix.speed == nil && fix.course == nil)
                #expect((fix.horizontalError ?? 0) >= 500)
                // The interval runs on the monotonic clock, whatever the fixes' times do.
                if let last = lastReduced[delivery.client]?.at, !repeatsLastReduced { #expect(now - last >= 120) }
                if !repeatsLastReduced { lastReduced[delivery.client] = (fix, now) }
            }
        }
        // Events exactly for real changes.
        let after = engine.authorizations
        let old = Dictionary(before.map { ($0.client, $0) }, uniquingKeysWith: { a, _ in a })
        let changed = after.filter { a in
            guard let b = old[a.client] else { return true }
            return a.status != b.status || a.once != b.once || a.provisional != b.provisional || a.accuracy != b.accuracy
        }
        #expect(effects.authorizationEvents == changed, "step \(step): authorization events")
        // Persist exactly when saved state changed, once, last.
        let saved = engine.savedState
        #expect((effects.persists == 1) == (saved != savedBefore), "step \(step): persist")
        #expect(effects.persists <= 1)
        if effects.persists == 1 { #expect(effects.last == .persist) }
        // Pending prompts are answerable.
        for prompt in engine.prompts {
            let auth = engine.authorization(of: prompt.client)
            switch prompt.kind {
            case .whileUsing, .always: #expect(auth?.status == .ask, "step \(step): stale prompt")
            case .alwaysUpgrade: #expect(auth?.status == .whileUsing || auth?.provisional == true)
            case .fullAccuracy: #expect(auth?.accuracy == .reduced)
            case .share: #expect(auth?.status == .ask, "step \(step): stale share prompt")
            }
        }
        for delivery in effects.deliveries {
            #expect(delivery.fix.latitude.isFinite && delivery.fix.longitude.isFinite)
        }
    }

    static func isTimeJump(_ effect: Effect) -> Bool {
        if case .event(.timeJump) = effect { true } else { false }
    }

    /// Per client, fixes delivered plus fixes counted as dropped.
    static func accounted(_ engine: Engine, now: Double) -> [String: Int] {
        var out: [String: Int] = [:]
        for c in engine.status(now: now).clients { out[c.authorization.client] = c.deliveredCount + c.drops.total }
        return out
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomSequencesKeepEveryInvariant(_ seed: UInt64) async throws {
        var driver = Driver(random: Xoshiro256(seed: seed))
        var settings = EngineSettings(clients: Self.clientSettings(), services: true, restricted: [], policySource: "test")
        var engine = Engine(settings: settings, saved: nil, seed: seed)
        var lastDelivered: [String: Double] = [:]
        var lastReduced: [String: (fix: Fix, at: Double)] = [:]
        var delivered = 0
        for step in 0..<10_000 {
            let before = engine.authorizations
            let savedBefore = engine.savedState
            let effects: [Effect]
            let r = driver.int(100)
            if r < 45 {
                let fix = driver.fix()
                let counted = Self.accounted(engine, now: driver.now)
                effects = engine.handle(.fix(fix), now: driver.now)
                // Every fix is, per client, delivered or counted under exactly one reason.
                for (name, after) in Self.accounted(engine, now: driver.now) {
                    #expect(after == (counted[name] ?? 0) + 1, "step \(step): \(name) did not account for the fix")
                }
            } else if r < 60 {
                driver.now += driver.pick([0.5, 1, 1, 5, 61])
                effects = engine.handle(.tick, now: driver.now)
            } else if r < 64 {
                effects = engine.handle(.source(driver.pick(SourceState.allCases)), now: driver.now)
            } else if r < 99 {
                effects = engine.handle(driver.command(), now: driver.now).effects
            } else {
                // SIGHUP with a changed policy or filter; clients come and go.
                settings.restricted = driver.chance(0.5) ? [driver.pick(Self.names)] : []
                settings.clients = Self.clientSettings().filter { _ in driver.chance(0.85) }
                if driver.chance(0.5), !settings.clients.isEmpty { settings.clients[0].distanceFilter = driver.pick([nil, 1, 100]) }
                effects = engine.handle(settings, now: driver.now)
                for name in Self.names where engine.authorization(of: name) == nil {
                    lastDelivered[name] = nil
                    lastReduced[name] = nil
                }
            }
            delivered += effects.deliveries.count
            Self.check(
                effects, before: before, savedBefore: savedBefore, engine: engine, now: driver.now,
                lastDelivered: &lastDelivered, lastReduced: &lastReduced, step: step)
            if step % 1000 == 999 {
                let text = engine.savedState.json.serialized
                #expect(try SavedState(json: JSONValue.parse(Array(text.utf8))) == engine.savedState)
            }
            // Seconds of CPU: let the other tests' tasks have the shared pool's threads now and then.
            if step % 250 == 249 { await Task.yield() }
        }
        // The sequence exercised delivery at all (a check that cannot pass vacuously).
        #expect(delivered > 100)
    }
}
