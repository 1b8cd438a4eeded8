import Testing

@testable import LocationConfig
@testable import LocationCore

/// `desired_accuracy = reduced` (iOS's `kCLLocationAccuracyReduced`; the GeoClue face's CITY
/// level): the app wants no more than the reduced position, whatever the person allowed.
@Suite struct DesiredReducedTests {
    typealias E = TestEngine

    @Test func aFullAccuracyClientThatWantsReducedGetsTheReducedPositionAndKeepsItsSwitch() {
        var engine = E.engine(E.client(accuracy: .reduced, authorization: .whileUsing))
        let deliveries = engine.feed(E.fix(1)).deliveries
        #expect(deliveries.map(\.accuracy) == [.reduced])
        #expect(deliveries.first?.fix.latitude != E.fix(1).latitude)
        #expect(deliveries.first?.fix.horizontalError == 2000)
        #expect(engine.auth().accuracy == .full, "the person's Precise switch is not changed by what the app wants")
    }

    /// While the interval runs, `status` says the reduction is the app's own request and names no
    /// `accuracy … full` step, which would change nothing (#48); a reduced switch names it.
    @Test func theReductionTheAppAskedForIsSaidToBeItsOwn() throws {
        var engine = E.engine(E.client(accuracy: .reduced, authorization: .whileUsing))
        for second in [1.0, 30, 31] { _ = engine.feed(E.fix(second)) }
        let status = try #require(engine.status(now: E.t0 + 31).clients.first)
        #expect(status.reason.contains("as the app asks (desired_accuracy = reduced)"), "\(status.reason)")
        #expect(status.suggestion == nil, "\(String(describing: status.suggestion))")
        var switched = E.engine(E.client(precise: false, authorization: .whileUsing))
        for second in [1.0, 30, 31] { _ = switched.feed(E.fix(second)) }
        let reduced = try #require(switched.status(now: E.t0 + 31).clients.first)
        #expect(!reduced.reason.contains("as the app asks") && reduced.suggestion != nil, "\(reduced.reason)")
    }

    @Test func wantingFullAgainOnReloadDeliversTheFullPosition() {
        var engine = E.engine(E.client(accuracy: .reduced, authorization: .whileUsing))
        _ = engine.feed(E.fix(1))
        _ = engine.handle(EngineSettings(clients: [E.client(authorization: .whileUsing)]), now: E.t0 + 1.5)
        let deliveries = engine.feed(E.fix(2, north: 100)).deliveries
        #expect(deliveries.map(\.accuracy) == [.full])
        #expect(deliveries.first?.fix == E.fix(2, north: 100))
    }

    @Test func theConfigWordIsReduced() throws {
        let config = try DaemonConfig.parse("[client.app]\ndesired_accuracy = reduced\n", file: "t.conf")
        #expect(config.clients.first?.desiredAccuracy == .reduced)
        #expect(DesiredAccuracy.reduced.description == "reduced")
    }
}
