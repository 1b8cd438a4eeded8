import Testing
@testable import LocationConfig
@testable import LocationCore
@testable import LocationProtocol

/// docs/authorization.md §4: the eight steps, in order.
@Suite struct DeliveryOrderTests {
    typealias E = TestEngine

    @Test func step1ServicesOffDeliversNothingToAnyone() {
        var engine = E.engine([E.client("a", authorization: .always), E.client("b", authorization: .whileUsing)], services: false)
        #expect(engine.feed(E.fix(1)).deliveries.isEmpty)
        _ = engine.run(.services(on: true), at: 2)
        #expect(engine.feed(E.fix(3)).deliveries.map(\.client) == ["a", "b"])
    }

    @Test(arguments: [
        (AuthorizationStatus.always, true, true), (.always, false, true),
        (.whileUsing, true, true), (.whileUsing, false, false),
        (.ask, true, false), (.never, true, false),
    ])
    func step2EffectiveStatusGatesDelivery(_ status: AuthorizationStatus, _ inUse: Bool, _ delivers: Bool) {
        var engine = E.engine(E.client(authorization: status, inUse: inUse))
        #expect(engine.feed(E.fix(1)).delivered().count == (delivers ? 1 : 0))
    }

    @Test func step2RestrictedPolicyWinsOverStoredAlways() {
        var engine = E.engine(E.client(authorization: .always), restricted: ["app"])
        #expect(engine.feed(E.fix(1)).deliveries.isEmpty)
        #expect(engine.auth().status == .restricted)
        #expect(engine.auth().reason == .restricted)
    }

    @Test func step2OnceAndProvisionalDeliverOnlyInUse() {
        var once = E.engine(E.client(inUse: false))
        once.allowShare()
        _ = once.run(.share(client: "app"))
        #expect(once.feed(E.fix(1)).delivered().count == 1)
        _ = once.run(.session(client: "app", inUse: false), at: 2)
        #expect(once.feed(E.fix(3)).delivered().isEmpty)
    }

    @Test func step3OnlyUpdatingOrLocatingClientsReceive() {
        var engine = E.engine([
            E.client("idle", authorization: .always, updating: false),
            E.client("on", authorization: .always, updating: true),
        ])
        #expect(engine.feed(E.fix(1)).deliveries.map(\.client) == ["on"])
        _ = engine.run(.locate(client: "idle", timeout: nil), at: 2)
        #expect(engine.feed(E.fix(3)).deliveries.map(\.client) == ["idle", "on"])
        #expect(engine.feed(E.fix(4)).deliveries.map(\.client) == ["on"])
    }

    @Test func step4UnusableAndOldFixesAreNotDelivered() {
        var engine = E.engine(E.client(authorization: .always))
        var noTime = E.fix(1)
        noTime.time = nil
        #expect(engine.handle(.fix(noTime), now: E.t0 + 1).deliveries.isEmpty)
        #expect(engine.feed(E.fix(1, mode: .noFix)).deliveries.isEmpty)
        #expect(engine.feed(E.fix(1, mode: .unknown)).deliveries.isEmpty)
        var nan = E.fix(1)
        nan.latitude = .nan
        #expect(engine.feed(nan).deliveries.isEmpty)
        var outOfRange = E.fix(1)
        outOfRange.longitude = 181
        #expect(engine.feed(outOfRange).deliveries.isEmpty)
        #expect(engine.feed(E.fix(2, mode: .twoD)).delivered().count == 1)
        // The same epoch again is not delivered; an older one starts a new time base and is
        // (ReceiverTimeTests has the rest).
        #expect(engine.feed(E.fix(2)).deliveries.isEmpty)
        #expect(engine.handle(.fix(E.fix(1.5)), now: E.t0 + 3).delivered().count == 1)
        #expect(engine.handle(.fix(E.fix(3)), now: E.t0 + 4).delivered().count == 1)
        let drops = engine.status(now: E.t0 + 4).clients[0].drops
        #expect(drops[.unusable] == 5 && drops[.sameEpoch] == 1 && drops.total == 6)
    }

    @Test(arguments: [
        (DesiredAccuracy.tenMeters, 10.0 as Double?, true), (.tenMeters, 10.01, false), (.tenMeters, nil, true),
        (.best, 5000, true), (.bestForNavigation, 1e6, true), (.kilometer, 999, true), (.kilometer, 1001, false),
        (.meters(3), 3, true), (.meters(3), 4, false),
    ])
    func step5AccuracyGateWithUnknownEstimatePassing(_ desired: DesiredAccuracy, _ error: Double?, _ delivers: Bool) {
        var engine = E.engine(E.client(accuracy: desired, authorization: .always))
        #expect(engine.feed(E.fix(1, error: error)).delivered().count == (delivers ? 1 : 0))
    }

    @Test func step6ReducedAccuracyAtMostOncePerInterval() throws {
        var engine = E.engine(E.client(precise: false, authorization: .always, reducedInterval: 900))
        let first = engine.feed(E.fix(0))
        let delivery = try #require(first.deliveries.first)
        #expect(delivery.accuracy == .reduced)
        #expect(first.persists == 1)
        for s in stride(from: 1.0, to: 900, by: 7) {
            #expect(engine.feed(E.fix(s, north: s)).deliveries.isEmpty)
        }
        #expect(engine.feed(E.fix(900, north: 900)).delivered().count == 1)
    }

    @Test func step6ReducedFixesCarryNoAltitudeSpeedOrCourse() throws {
        var engine = E.engine(E.client(precise: false, authorization: .always, reducedGrid: 2000))
        let fix = try #require(engine.feed(E.fix(0, error: 3)).delivered().first)
        #expect(fix.altitude == nil && fix.speed == nil && fix.course == nil && fix.verticalError == nil)
        #expect(fix.horizontalError == 2000)
        #expect(fix.time == E.t0)
        var coarse = E.engine(E.client(precise: false, authorization: .always, reducedGrid: 2000))
        #expect(coarse.feed(E.fix(0, error: 2500)).delivered().first?.horizontalError == 2500)
    }

    @Test func step7DistanceIsMeasuredFromTheLastDeliveredFix() {
        var engine = E.engine(E.client(filter: 10, authorization: .always))
        var delivered: [Double] = []
        // 3 m per second: received fixes are never 10 m apart, delivered ones are.
        for s in 0..<20 {
            if !engine.feed(E.fix(Double(s), north: 3 * Double(s))).delivered().isEmpty { delivered.append(Double(s)) }
        }
        #expect(delivered == [0, 4, 8, 12, 16])
    }

    @Test func step8EveryClientGetsItsOwnDecisionInConfigOrder() {
        var engine = E.engine([
            E.client("z", filter: 100, authorization: .always), E.client("a", authorization: .always),
            E.client("m", authorization: .whileUsing, inUse: false), E.client("b", precise: false, authorization: .always),
        ])
        #expect(engine.feed(E.fix(0)).deliveries.map(\.client) == ["z", "a", "b"])
        #expect(engine.feed(E.fix(1, north: 20)).deliveries.map(\.client) == ["a"])
        #expect(engine.feed(E.fix(2, north: 150)).deliveries.map(\.client) == ["z", "a"])
    }

    @Test func accuracyGateBeforeReducedIntervalSoARejectedFixDoesNotUseTheInterval() {
        var engine = E.engine(E.client(accuracy: .hundredMeters, precise: false, authorization: .always))
        #expect(engine.feed(E.fix(0, error: 500)).deliveries.isEmpty)
        #expect(engine.feed(E.fix(1, error: 5)).delivered().count == 1)
    }

    @Test func reducedIntervalBeforeDistanceFilter() {
        // A reduced client moving 3 km a minute: the distance filter would pass, the interval does not.
        var engine = E.engine(E.client(filter: 5, precise: false, authorization: .always, reducedInterval: 900))
        #expect(engine.feed(E.fix(0)).delivered().count == 1)
        #expect(engine.feed(E.fix(60, north: 3000)).deliveries.isEmpty)
        #expect(engine.feed(E.fix(960, north: 30000)).delivered().count == 1)
    }

    @Test func effectsWithinOneFixFollowConfigOrder() {
        var engine = E.engine([
            E.client("p"), E.client("q", authorization: .always), E.client("r", authorization: .always),
        ])
        _ = engine.run(.request(client: "p", kind: .always))
        _ = engine.run(.answer(client: "p", answer: .allowWhileUsing))
        _ = engine.run(.session(client: "p", inUse: false))
        #expect(engine.handle(.source(.fix), now: E.t0) == [.event(.source(.fix))])
        let effects = engine.feed(E.fix(1))
        // p's upgrade prompt (held-back fix), then q's and r's deliveries, then persist.
        #expect(effects.count == 4)
        #expect(effects.first == .event(.prompt(Prompt(client: "p", kind: .alwaysUpgrade, text: "Tracks in the background"), open: true)))
        #expect(effects.deliveries.map(\.client) == ["q", "r"])
        #expect(effects.last == .persist)
    }
}
