import Testing
@testable import LocationCore
@testable import LocationProtocol

/// `locate`, `start` while unauthorized, and `location-unknown` per outage (docs/authorization.md §4).
@Suite struct LocateAndOutageTests {
    typealias E = TestEngine

    @Test func locateDeliversExactlyOneFixWhateverItsDistanceThenStops() {
        var engine = E.engine(E.client(filter: 1000, authorization: .always, updating: false))
        let reply = engine.run(.locate(client: "app", timeout: nil))
        #expect(reply.accepted?.changed == true)
        #expect(engine.status(now: E.t0).clients.first?.locatePending == true)
        #expect(engine.feed(E.fix(1)).delivered().count == 1)
        #expect(engine.feed(E.fix(2, north: 5000)).deliveries.isEmpty)
        #expect(engine.status(now: E.t0 + 2).clients.first?.locatePending == false)
        // Again, a second locate takes the next fix even 1 m away.
        _ = engine.run(.locate(client: "app", timeout: 10), at: 3)
        #expect(engine.feed(E.fix(4, north: 5001)).delivered().count == 1)
    }

    @Test func locateWhileUpdatingBypassesTheFilterOnceWithOneDelivery() {
        var engine = E.engine(E.client(filter: 1000, authorization: .always))
        #expect(engine.feed(E.fix(0)).delivered().count == 1)
        _ = engine.run(.locate(client: "app", timeout: nil), at: 1)
        #expect(engine.feed(E.fix(2, north: 1)).delivered().count == 1)
        #expect(engine.feed(E.fix(3, north: 2)).deliveries.isEmpty)
    }

    @Test func theNextTimerIsTheEarliestOfTheOutageAndTheClientTimersAndNoneDuringAnOutage() {
        var engine = E.engine(E.client(authorization: .always, updating: false, locateTimeout: 30))
        #expect(engine.nextTimer == .infinity, "no input yet: nothing to time")
        _ = engine.feed(E.fix(0))
        #expect(engine.nextTimer == E.t0 + Engine.outageDelay, "5 s without a usable fix")
        _ = engine.feed(E.fix(1))
        #expect(engine.nextTimer == E.t0 + 1 + Engine.outageDelay, "each usable fix moves it")
        _ = engine.run(.locate(client: "app", timeout: 2), at: 2)
        #expect(engine.nextTimer == E.t0 + 4, "the locate's timeout comes first")
        _ = engine.handle(.source(.connecting), now: E.t0 + 3)
        #expect(engine.nextTimer == E.t0 + 4, "an outage has no deadline; the locate's stays")
        #expect(engine.tick(at: 4).errors() == [.locationUnknown])
        #expect(engine.nextTimer == .infinity, "nothing left to time until the next input")
        _ = engine.feed(E.fix(5))
        #expect(engine.nextTimer == E.t0 + 5 + Engine.outageDelay)
        _ = engine.handle(.source(.endOfFile), now: E.t0 + 6)
        #expect(engine.nextTimer == .infinity, "a file followed past its end is no outage: no tick for it")
    }

    @Test func locateTimesOutWithLocationUnknown() {
        var engine = E.engine(E.client(accuracy: .tenMeters, authorization: .always, updating: false, locateTimeout: 30))
        _ = engine.run(.locate(client: "app", timeout: nil), at: 0)
        // Fixes that fail step 5 do not satisfy it.
        #expect(engine.feed(E.fix(10, error: 50)).deliveries.isEmpty)
        #expect(engine.tick(at: 29.9).errors().isEmpty)
        #expect(engine.tick(at: 30).errors() == [.locationUnknown])
        #expect(engine.tick(at: 31).errors().isEmpty)
        #expect(engine.feed(E.fix(32)).deliveries.isEmpty)
    }

    @Test func locateTimeoutFiresOnTheNextFixWhenNoTickCame() {
        // Replay mode: no ticks, only fixes; the timer fires before the late fix is considered.
        var engine = E.engine(E.client(authorization: .always, updating: false))
        _ = engine.run(.locate(client: "app", timeout: 5), at: 0)
        let effects = engine.feed(E.fix(6))
        #expect(effects.errors() == [.locationUnknown])
        #expect(effects.deliveries.isEmpty)
    }

    @Test func locateRejectsABadTimeout() {
        var engine = E.engine(E.client(authorization: .always))
        for timeout in [0.0, -1, .nan, .infinity] {
            #expect(engine.run(.locate(client: "app", timeout: timeout)).error?.code == .invalidArgument)
        }
    }

    @Test(arguments: ["never", "restricted", "services-off"])
    func startOrLocateWhileRefusedIsDeniedAndNothingElseChanges(_ why: String) {
        var engine =
            switch why {
            case "never": E.engine(E.client(authorization: .never, updating: false))
            case "restricted": E.engine(E.client(authorization: .always, updating: false), restricted: ["app"])
            default: E.engine(E.client(authorization: .always, updating: false), services: false)
            }
        let saved = engine.savedState
        for command in [Command.start(client: "app"), .locate(client: "app", timeout: nil)] {
            let result = engine.run(command)
            #expect(result.error?.code == .denied)
            #expect(result.effects.errors() == [.denied])
            #expect(result.effects.count == 1)
        }
        let status = engine.status(now: E.t0).clients[0]
        #expect(!status.updating && !status.locatePending)
        #expect(engine.savedState == saved)
    }

    @Test func startWhileAskIsAcceptedButNothingArrivesUntilAuthorized() throws {
        var engine = E.engine(E.client(updating: false))
        let reply = try #require(engine.run(.start(client: "app")).accepted)
        #expect(reply.changed)
        #expect(reply.message.contains("until"))
        #expect(engine.feed(E.fix(1)).deliveries.isEmpty)
        _ = engine.run(.authorize(client: "app", status: .whileUsing), at: 2)
        #expect(engine.feed(E.fix(3)).delivered().count == 1)
    }

    @Test func stopCancelsAPendingLocate() {
        var engine = E.engine(E.client(authorization: .always, updating: false))
        _ = engine.run(.locate(client: "app", timeout: 10))
        _ = engine.run(.stop(client: "app"), at: 1)
        #expect(engine.feed(E.fix(2)).deliveries.isEmpty)
        #expect(engine.tick(at: 20).errors().isEmpty)
    }

    @Test func revokingAuthorizationWhileUpdatingTellsTheClientDenied() {
        var engine = E.engine([E.client("a", authorization: .always), E.client("b", authorization: .always, updating: false)])
        _ = engine.run(.locate(client: "b", timeout: 30))
        let result = engine.run(.authorize(client: "a", status: .never), at: 1)
        #expect(result.effects.errors(for: "a") == [.denied])
        let off = engine.run(.services(on: false), at: 2)
        #expect(off.effects.errors(for: "b") == [.denied])
        #expect(off.effects.errors(for: "a").isEmpty)
        // b's locate was cancelled with the denial: no later timeout.
        _ = engine.run(.services(on: true), at: 3)
        #expect(engine.tick(at: 100).errors(for: "b").isEmpty)
    }

    @Test func sourceOutageIsReportedOncePerOutage() {
        var engine = E.engine([E.client("a", authorization: .always), E.client("idle", authorization: .always, updating: false)])
        #expect(engine.feed(E.fix(0)).delivered(to: "a").count == 1)
        let lost = engine.handle(.source(.noFix), now: E.t0 + 1)
        #expect(lost.sourceEvents == [.noFix])
        #expect(lost.errors(for: "a") == [.locationUnknown])
        #expect(lost.errors(for: "idle").isEmpty)
        for s in 2..<30 {
            #expect(engine.tick(at: Double(s)).errors(for: "a").isEmpty)
            #expect(engine.feed(E.fix(Double(s) + 0.5, mode: .noFix)).errors(for: "a").isEmpty)
        }
        #expect(engine.handle(.source(.connecting), now: E.t0 + 30).errors(for: "a").isEmpty)
        // The next usable fix ends it; the next outage is reported again.
        #expect(engine.feed(E.fix(31)).delivered(to: "a").count == 1)
        #expect(engine.feed(E.fix(32, mode: .noFix)).errors(for: "a") == [.locationUnknown])
    }

    @Test func fiveSecondsWithoutAUsableFixIsAnOutage() {
        var engine = E.engine(E.client(authorization: .always))
        _ = engine.handle(.source(.fix), now: E.t0)
        _ = engine.feed(E.fix(0))
        // Fixes keep coming but none is usable (out-of-range coordinates in a 3D fix).
        var bad = E.fix(1)
        bad.latitude = 200
        #expect(engine.handle(.fix(bad), now: E.t0 + 4.9).errors().isEmpty)
        #expect(engine.handle(.fix(bad), now: E.t0 + 5).errors() == [.locationUnknown])
        #expect(engine.tick(at: 6).errors().isEmpty)
        #expect(engine.tick(at: 60).errors().isEmpty)
    }

    @Test func noFixAtAllAfterStartIsAnOutageAfterFiveSeconds() {
        var engine = E.engine(E.client(authorization: .always))
        #expect(engine.handle(.source(.connected), now: 100).errors().isEmpty)
        #expect(engine.handle(.tick, now: 104).errors().isEmpty)
        #expect(engine.handle(.tick, now: 105).errors() == [.locationUnknown])
    }

    @Test func clientThatStartsDuringAnOutageIsToldOnce() {
        var engine = E.engine(E.client(authorization: .always, updating: false))
        _ = engine.handle(.source(.connecting), now: E.t0)
        let started = engine.run(.start(client: "app"), at: 1)
        #expect(started.effects.errors() == [.locationUnknown])
        #expect(engine.tick(at: 2).errors().isEmpty)
    }

    @Test func sourceEventsOnlyOnChange() {
        var engine = E.engine(E.client())
        #expect(engine.handle(.source(.connecting), now: 0).sourceEvents.isEmpty)
        #expect(engine.handle(.source(.connected), now: 1).sourceEvents == [.connected])
        #expect(engine.handle(.source(.connected), now: 2).sourceEvents.isEmpty)
        #expect(engine.status(now: 3).source == .connected)
    }
}
