import Testing
@testable import LocationConfig
@testable import LocationCore
@testable import LocationValues

/// docs/authorization.md §4, step 7: the distance filter works within a run; any interruption
/// or accuracy change starts a new run whose first fix is delivered whatever
/// its distance.
@Suite struct RunTests {
    typealias E = TestEngine

    /// An engine whose client has just had a fix delivered at `north: 0`, filter 50 m.
    func running(_ client: ClientSettings = E.client(filter: 50, authorization: .always)) -> Engine {
        var engine = E.engine(client)
        let first = engine.feed(E.fix(0))
        #expect(first.delivered().count == 1)
        #expect(engine.feed(E.fix(1, north: 1)).deliveries.isEmpty, "within the run the filter holds")
        return engine
    }

    @Test func firstFixOfARunIsDeliveredWhateverItsDistance() {
        var engine = running()
        #expect(engine.feed(E.fix(2, north: 49)).deliveries.isEmpty)
        #expect(engine.feed(E.fix(3, north: 50.5)).delivered().count == 1)
    }

    @Test func stopAndStartStartsANewRun() {
        var engine = running()
        _ = engine.run(.stop(client: "app"), at: 2)
        _ = engine.run(.start(client: "app"), at: 3)
        #expect(engine.feed(E.fix(4, north: 2)).delivered().count == 1)
    }

    @Test func aFixFailingStep2EndsTheRun() {
        var engine = running(E.client(filter: 50, authorization: .whileUsing))
        _ = engine.run(.session(client: "app", inUse: false), at: 2)
        #expect(engine.feed(E.fix(3, north: 2)).deliveries.isEmpty)
        _ = engine.run(.session(client: "app", inUse: true), at: 4)
        #expect(engine.feed(E.fix(5, north: 3)).delivered().count == 1)
    }

    @Test func goingOutOfUseAndBackWithoutAnyFixBetweenStillEndsTheRun() {
        var engine = running(E.client(filter: 50, authorization: .whileUsing))
        _ = engine.run(.session(client: "app", inUse: false), at: 2)
        _ = engine.run(.session(client: "app", inUse: true), at: 3)
        #expect(engine.feed(E.fix(4, north: 2)).delivered().count == 1)
    }

    @Test func servicesOffAndOnStartsANewRun() {
        var engine = running()
        _ = engine.run(.services(on: false), at: 2)
        _ = engine.run(.services(on: true), at: 3)
        #expect(engine.feed(E.fix(4, north: 2)).delivered().count == 1)
    }

    @Test func authorizationFlipStartsANewRun() {
        var engine = running()
        _ = engine.run(.authorize(client: "app", status: .never), at: 2)
        _ = engine.run(.authorize(client: "app", status: .always), at: 3)
        #expect(engine.feed(E.fix(4, north: 2)).delivered().count == 1)
    }

    @Test func accuracyChangeStartsANewRun() {
        var engine = running(E.client(filter: 50, precise: false, authorization: .always))
        // Reduced: the first fix went out; now the user switches Precise on.
        let switched = engine.run(.accuracy(client: "app", full: true), at: 2)
        #expect(switched.effects.authorizationEvents.map(\.accuracy) == [.full])
        let effects = engine.feed(E.fix(3, north: 2))
        #expect(effects.deliveries.map(\.accuracy) == [.full])
        #expect(engine.feed(E.fix(4, north: 4)).deliveries.isEmpty)
    }

    @Test func temporaryFullAccuracyGrantStartsANewRun() {
        var engine = running(E.client(filter: 50, precise: false, authorization: .always))
        _ = engine.run(.requestFullAccuracy(client: "app", purpose: "survey"), at: 2)
        _ = engine.run(.answer(client: "app", answer: .allow), at: 3)
        #expect(engine.feed(E.fix(4, north: 2)).deliveries.map(\.accuracy) == [.full])
    }

    @Test func fixesFailingLaterStepsDoNotEndTheRun() {
        var engine = running(E.client(filter: 50, accuracy: .tenMeters, authorization: .always))
        // Steps 4 and 5 fail: the run goes on, so the filter still holds afterwards.
        #expect(engine.feed(E.fix(2, north: 3, error: 100)).deliveries.isEmpty)
        #expect(engine.feed(E.fix(3, mode: .noFix)).deliveries.isEmpty)
        #expect(engine.feed(E.fix(2.5, north: 3)).deliveries.isEmpty)
        #expect(engine.feed(E.fix(4, north: 4)).deliveries.isEmpty)
        #expect(engine.feed(E.fix(5, north: 60)).delivered().count == 1)
    }

    @Test func filterCountsGeodesicMetresAcrossTheAntimeridian() {
        var engine = E.engine(E.client(filter: 100, authorization: .always))
        let west = Fix(time: E.t0, mode: .threeD, latitude: 0, longitude: 179.9996)
        // 0.0009° of longitude at the equator is about 100.19 m.
        let east = Fix(time: E.t0 + 1, mode: .threeD, latitude: 0, longitude: -179.99995)
        let further = Fix(time: E.t0 + 2, mode: .threeD, latitude: 0, longitude: -179.9995)
        #expect(engine.feed(west).delivered().count == 1)
        #expect(engine.feed(east).deliveries.isEmpty)
        #expect(engine.feed(further).delivered().count == 1)
    }

    @Test func filterDecisionMatchesTheExactGeodesicAtTheThreshold() {
        // Fixes placed a hair either side of the threshold, checked against the exact solution.
        var engine = E.engine(E.client(filter: 25, authorization: .always))
        let origin = Fix(time: E.t0, mode: .threeD, latitude: 60, longitude: 10)
        _ = engine.feed(origin)
        var t = 1.0
        for dLat in stride(from: 0.000_224_0, through: 0.000_225_2, by: 0.000_000_05) {
            let candidate = Fix(time: E.t0 + t, mode: .threeD, latitude: 60 + dLat, longitude: 10)
            t += 1
            let exact = Geodesy.distance(fromLatitude: 60, longitude: 10, toLatitude: 60 + dLat, longitude: 10)
            let delivered = !engine.feed(candidate).deliveries.isEmpty
            #expect(delivered == (exact >= 25), "dLat \(dLat): \(exact) m")
            if delivered { return }
        }
        Issue.record("no candidate reached 25 m")
    }
}
