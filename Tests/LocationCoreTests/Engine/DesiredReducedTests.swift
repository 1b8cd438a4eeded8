import Testing

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
