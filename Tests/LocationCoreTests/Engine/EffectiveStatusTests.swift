import Testing
@testable import LocationCore
@testable import LocationProtocol

/// docs/authorization.md §2 and §13: effective status, events only on real change, and a new watcher's initial state.
@Suite struct EffectiveStatusTests {
    typealias E = TestEngine

    @Test func servicesOffMakesEveryClientNeverAndOnRestoresStoredStatusesAndFlags() {
        var engine = E.engine([E.client("a", authorization: .always), E.client("b")])
        engine.allowShare("b")
        _ = engine.run(.share(client: "b"))
        _ = engine.run(.services(on: false), at: 1)
        for auth in engine.authorizations {
            #expect(auth.status == .never)
            #expect(auth.reason == .servicesOff)
            #expect(!auth.once)
            #expect(auth.statusDescription == "never (services off)")
        }
        #expect(engine.auth("a").stored == .always)
        _ = engine.run(.services(on: true), at: 2)
        #expect(engine.auth("a").status == .always && engine.auth("a").reason == nil)
        #expect(engine.auth("b").status == .whileUsing && engine.auth("b").once)
    }

    @Test func servicesSwitchIsSavedAndRestored() {
        var engine = E.engine([E.client()])
        _ = engine.run(.services(on: false))
        #expect(engine.savedState.services == false)
        let restarted = E.engine([E.client()], services: true, saved: engine.savedState)
        #expect(restarted.auth().status == .never)
    }

    @Test func restrictedPolicyWinsOverStoredStatusAndServicesOff() {
        var engine = E.engine([E.client("a", authorization: .always)], services: false, restricted: ["a"])
        #expect(engine.auth("a").status == .restricted)
        #expect(engine.auth("a").reason == .restricted)
        _ = engine.run(.services(on: true))
        #expect(engine.auth("a").status == .restricted)
        // Stored status is kept beneath the policy and is never saved as restricted.
        #expect(engine.savedState.client("a")?.status == .always)
    }

    @Test func authorizeWhileServicesOffStoresButRaisesNoEvent() {
        var engine = E.engine(E.client(), services: false)
        let result = engine.run(.authorize(client: "app", status: .always))
        #expect(result.accepted?.changed == true)
        #expect(result.accepted?.message.contains("services on") == true)
        #expect(result.effects.authorizationEvents.isEmpty)
        #expect(result.effects.persists == 1)
        let on = engine.run(.services(on: true), at: 1)
        #expect(on.effects.authorizationEvents.map(\.status) == [.always])
    }

    @Test func noEventWithoutARealChange() {
        var engine = E.engine(E.client(authorization: .whileUsing))
        let same = engine.run(.authorize(client: "app", status: .whileUsing))
        #expect(same.accepted?.changed == false)
        #expect(same.effects.isEmpty)
        #expect(engine.run(.session(client: "app", inUse: false)).effects.authorizationEvents.isEmpty)
        #expect(engine.run(.start(client: "app")).effects.authorizationEvents.isEmpty)
        #expect(engine.feed(E.fix(1)).authorizationEvents.isEmpty)
        #expect(engine.run(.accuracy(client: "app", full: true)).effects.isEmpty)
    }

    @Test func newWatcherGetsEveryClientsCurrentStateInConfigOrder() {
        var engine = E.engine([
            E.client("z", authorization: .always), E.client("a"), E.client("m", precise: false, authorization: .never),
        ], restricted: ["m"])
        engine.allowShare("a")
        _ = engine.run(.share(client: "a"))
        let initial = engine.authorizations
        #expect(initial.map(\.client) == ["z", "a", "m"])
        #expect(initial.map(\.status) == [.always, .whileUsing, .restricted])
        #expect(initial[1].once)
        #expect(initial[2].accuracy == .reduced)
    }

    @Test func movingPromptsCloseWhenStatusMakesThemMoot() {
        var engine = E.engine([E.client("a"), E.client("b", precise: false, authorization: .whileUsing)])
        _ = engine.run(.request(client: "a", kind: .whileUsing))
        _ = engine.run(.requestFullAccuracy(client: "b", purpose: "survey"))
        #expect(engine.prompts.count == 2)
        let off = engine.run(.services(on: false), at: 1)
        #expect(off.effects.closedPrompts.map(\.client) == ["a", "b"])
        #expect(engine.prompts.isEmpty)
        #expect(engine.run(.answer(client: "a", answer: .allowOnce), at: 2).error?.code == .noPrompt)
    }

    @Test func authorizeClosesTheRequestPromptAndAccuracySwitchClosesTheFullAccuracyPrompt() {
        var engine = E.engine([E.client("a"), E.client("b", precise: false, authorization: .whileUsing)])
        _ = engine.run(.request(client: "a", kind: .always))
        _ = engine.run(.requestFullAccuracy(client: "b", purpose: "survey"))
        let authorized = engine.run(.authorize(client: "a", status: .never), at: 1)
        #expect(authorized.effects.closedPrompts.map(\.client) == ["a"])
        let precise = engine.run(.accuracy(client: "b", full: true), at: 2)
        #expect(precise.effects.closedPrompts.map(\.kind) == [.fullAccuracy])
    }

    @Test func onePendingPromptPerClient() {
        var engine = E.engine(E.client())
        _ = engine.run(.request(client: "app", kind: .whileUsing))
        let again = engine.run(.request(client: "app", kind: .always), at: 1)
        #expect(again.accepted?.changed == false)
        #expect(again.accepted?.message.contains("already pending") == true)
        #expect(engine.prompts.map(\.kind) == [.whileUsing])
    }

    @Test func answersMustFitThePrompt() {
        var engine = E.engine(E.client())
        #expect(engine.run(.answer(client: "app", answer: .deny)).error?.code == .noPrompt)
        _ = engine.run(.request(client: "app", kind: .whileUsing))
        for wrong in [Answer.allow, .keepWhileUsing, .changeToAlways] {
            let result = engine.run(.answer(client: "app", answer: wrong))
            #expect(result.error?.code == .invalidAnswer)
            #expect(result.error?.message.contains("allow-once") == true)
        }
        #expect(engine.prompts.count == 1)
    }

    @Test func unknownClientNamesTheConfiguredOnes() {
        var engine = E.engine([E.client("logger"), E.client("tracker")])
        let commands: [Command] = [
            .authorize(client: "x", status: .always), .accuracy(client: "x", full: true),
            .request(client: "x", kind: .whileUsing), .answer(client: "x", answer: .deny), .share(client: "x"),
            .requestFullAccuracy(client: "x", purpose: "survey"), .session(client: "x", inUse: true),
            .start(client: "x"), .stop(client: "x"), .locate(client: "x", timeout: nil),
        ]
        for command in commands {
            let error = engine.run(command).error
            #expect(error?.code == .unknownClient)
            #expect(error?.message.contains("logger, tracker") == true)
        }
    }

    @Test func authorizeRestrictedIsAnInvalidArgument() {
        var engine = E.engine(E.client())
        #expect(engine.run(.authorize(client: "app", status: .restricted)).error?.code == .invalidArgument)
    }

    @Test func statusExplainsWhyAndSuggestsTheOneCommand() {
        var engine = E.engine([
            E.client("ask"), E.client("never", authorization: .never), E.client("bg", authorization: .whileUsing, inUse: false),
            E.client("stopped", authorization: .always, updating: false), E.client("ok", authorization: .always),
        ])
        _ = engine.feed(E.fix(0))
        let clients = engine.status(now: E.t0 + 2).clients
        #expect(clients.map(\.suggestion) == [
            .authorize(client: "ask", status: .whileUsing), .authorize(client: "never", status: .whileUsing),
            .session(client: "bg", inUse: true), .start(client: "stopped"), nil,
        ])
        #expect(clients.map(\.delivering) == [false, false, false, false, true])
        #expect(clients[4].deliveredCount == 1)
        #expect(clients[4].lastDelivered == E.t0)
        let status = engine.status(now: E.t0 + 2)
        #expect(status.lastFixAge == 2)
        _ = engine.run(.services(on: false), at: 3)
        #expect(engine.status(now: E.t0 + 3).clients.allSatisfy { $0.suggestion == .services(on: true) })
    }
}
