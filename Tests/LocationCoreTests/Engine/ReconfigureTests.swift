import Testing
@testable import LocationConfig
@testable import LocationCore

/// SIGHUP: `reconfigure` keeps remaining clients' state, adds new ones, drops removed ones.
@Suite struct ReconfigureTests {
    typealias E = TestEngine

    func settings(_ clients: [ClientSettings], restricted: Set<String> = []) -> EngineSettings {
        EngineSettings(clients: clients, services: true, restricted: restricted, policySource: "[policy] restricted in test.conf")
    }

    @Test func remainingClientsKeepStateAndTakeNewSettings() {
        var engine = E.engine([E.client("a", filter: 1000, authorization: .ask), E.client("b")])
        engine.allowShare("a")
        _ = engine.run(.share(client: "a"))
        _ = engine.feed(E.fix(0))
        #expect(engine.feed(E.fix(1, north: 20)).deliveries.isEmpty)
        let effects = engine.handle(
            settings([E.client("a", filter: 10, authorization: .never, updating: false, inUse: false)]), now: E.t0 + 2)
        #expect(effects.authorizationEvents.isEmpty)
        #expect(engine.auth("a").status == .whileUsing && engine.auth("a").once)
        // The new filter applies within the same run; in_use/updating are start-up values and stay as they were.
        #expect(engine.feed(E.fix(3, north: 21)).delivered(to: "a").count == 1)
        #expect(engine.authorizations.map(\.client) == ["a"])
        #expect(effects.persists == 1, "b left the saved state")
    }

    @Test func newClientsStartFromConfigAndAreAnnounced() {
        var engine = E.engine([E.client("a")])
        let effects = engine.handle(settings([E.client("a"), E.client("n", authorization: .always)]), now: E.t0)
        #expect(effects.authorizationEvents.map(\.client) == ["n"])
        #expect(engine.auth("n").status == .always)
        #expect(effects.persists == 1)
        #expect(engine.feed(E.fix(1)).deliveries.map(\.client) == ["n"])
    }

    @Test func removedClientsPromptsClose() {
        var engine = E.engine([E.client("a"), E.client("b")])
        _ = engine.run(.request(client: "b", kind: .whileUsing))
        let effects = engine.handle(settings([E.client("a")]), now: E.t0 + 1)
        #expect(effects.closedPrompts.map(\.client) == ["b"])
        #expect(engine.prompts.isEmpty)
        #expect(engine.run(.share(client: "b")).error?.code == .unknownClient)
    }

    @Test func newlyRestrictedClientIsRestrictedAndToldDenied() {
        var engine = E.engine([E.client("a", authorization: .always)])
        _ = engine.run(.request(client: "a", kind: .always))
        let effects = engine.handle(settings([E.client("a", authorization: .always)], restricted: ["a"]), now: E.t0 + 1)
        #expect(effects.authorizationEvents.map(\.status) == [.restricted])
        #expect(effects.errors(for: "a") == [.denied])
        let lifted = engine.handle(settings([E.client("a")]), now: E.t0 + 2)
        #expect(lifted.authorizationEvents.map(\.status) == [.always])
    }

    @Test func servicesSwitchIsNotResetByAReload() {
        var engine = E.engine([E.client("a")])
        _ = engine.run(.services(on: false))
        _ = engine.handle(settings([E.client("a")]), now: E.t0 + 1)
        #expect(engine.auth("a").reason == .servicesOff)
    }

    @Test func duplicateClientNamesKeepTheFirst() {
        let engine = E.engine([E.client("a", authorization: .always), E.client("a", authorization: .never)])
        #expect(engine.authorizations.map(\.status) == [.always])
        #expect(engine.settings.clients.count == 1)
    }
}
