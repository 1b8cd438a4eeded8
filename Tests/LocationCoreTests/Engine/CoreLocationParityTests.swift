import Testing
@testable import LocationCore
@testable import LocationProtocol

/// The behaviours where the engine once differed from Core Location (issue #14), one suite each:
/// the prompt's Precise switch, the location button's first use, Reset Location & Privacy, and a
/// reduced `locate` that answers promptly. (Already-full `request-full-accuracy` is a row of
/// TransitionTableTests.)
@Suite struct PromptPreciseSwitchTests {
    typealias E = TestEngine

    @Test(arguments: [
        (RequestKind.whileUsing, Answer.allowWhileUsing, AuthorizationStatus.whileUsing, false, false),
        (.whileUsing, .allowOnce, .whileUsing, true, false),
        (.always, .allowWhileUsing, .always, false, true),
        (.always, .allowOnce, .whileUsing, true, false),
    ])
    func anApproximateAnswerGrantsReducedAccuracyAtOnce(
        _ kind: RequestKind, _ answer: Answer, _ status: AuthorizationStatus, _ once: Bool, _ provisional: Bool
    ) throws {
        var engine = E.engine(E.client())
        _ = engine.run(.request(client: "app", kind: kind))
        let result = engine.run(.answer(client: "app", answer: answer, precise: false))
        #expect(result.accepted?.changed == true)
        #expect(result.accepted?.message.contains("reduced accuracy") == true)
        let event = try #require(result.effects.authorizationEvents.first)
        #expect(result.effects.authorizationEvents.count == 1)
        #expect(event.status == status && event.once == once && event.provisional == provisional)
        #expect(event.accuracy == .reduced)
        #expect(engine.savedState.client("app")?.fullAccuracy == false)
        #expect(engine.feed(E.fix(1)).deliveries.map(\.accuracy) == [.reduced])
    }

    @Test func aPreciseAnswerGrantsFullAccuracyToAClientConfiguredReduced() throws {
        var engine = E.engine(E.client(precise: false))
        _ = engine.run(.request(client: "app", kind: .whileUsing))
        let result = engine.run(.answer(client: "app", answer: .allowWhileUsing, precise: true))
        #expect(result.effects.authorizationEvents.map(\.accuracy) == [.full])
        // Without the switch the accuracy stays what it was.
        var plain = E.engine(E.client(precise: false))
        _ = plain.run(.request(client: "app", kind: .whileUsing))
        _ = plain.run(.answer(client: "app", answer: .allowWhileUsing))
        #expect(plain.auth().accuracy == .reduced)
    }

    @Test func theSwitchGoesOnlyWithAnAnswerThatGrantsOnAPermissionPrompt() throws {
        var engine = E.engine(E.client(precise: false, authorization: .whileUsing))
        _ = engine.run(.requestFullAccuracy(client: "app", purpose: "survey"))
        let onFull = engine.run(.answer(client: "app", answer: .allow, precise: false))
        #expect(onFull.error?.code == .invalidArgument)
        #expect(onFull.effects.isEmpty)
        #expect(engine.prompts.map(\.kind) == [.fullAccuracy], "a refused answer leaves the prompt open")

        var asking = E.engine(E.client())
        _ = asking.run(.request(client: "app", kind: .whileUsing))
        #expect(asking.run(.answer(client: "app", answer: .deny, precise: false)).error?.code == .invalidArgument)
        #expect(asking.auth().status == .ask)
    }
}

@Suite struct LocationButtonFirstUseTests {
    typealias E = TestEngine

    @Test func theFirstShareOpensAShareAndADenyLeavesTheStatusAsItWas() throws {
        var engine = E.engine(E.client(inUse: false))
        let first = engine.run(.share(client: "app"))
        let prompt = try #require(first.accepted?.prompt)
        #expect(first.accepted?.changed == true)
        #expect(prompt.kind == .share && prompt.answers == [.allow, .deny])
        #expect(prompt.text == "Shows where you are")
        #expect(first.effects.openedPrompts == [prompt])
        #expect(first.effects.authorizationEvents.isEmpty)
        #expect(engine.auth().status == .ask)
        #expect(engine.status(now: E.t0).clients[0].inUse == false)
        #expect(engine.feed(E.fix(1)).deliveries.isEmpty)

        let denied = engine.run(.answer(client: "app", answer: .deny), at: 2)
        #expect(denied.accepted?.changed == true)
        #expect(denied.effects.closedPrompts.map(\.kind) == [.share])
        #expect(denied.effects.authorizationEvents.isEmpty)
        #expect(engine.auth().status == .ask)
        // Not allowed yet: the next share asks again.
        #expect(engine.run(.share(client: "app"), at: 3).accepted?.prompt?.kind == .share)
    }

    @Test func afterOneAllowLaterSharesGrantAtOnceAcrossRestarts() throws {
        var engine = E.engine(E.client(inUse: false))
        _ = engine.run(.share(client: "app"))
        let allowed = engine.run(.answer(client: "app", answer: .allow), at: 1)
        let event = try #require(allowed.effects.authorizationEvents.first)
        #expect(event.status == .whileUsing && event.once)
        #expect(engine.status(now: E.t0).clients[0].inUse)
        #expect(allowed.effects.persists == 1, "the consent is saved")
        #expect(engine.feed(E.fix(2)).delivered().count == 1)

        let restarted = E.engine([E.client(inUse: false)], saved: engine.savedState)
        var again = restarted
        #expect(again.auth().status == .ask, "the once grant ended with the restart")
        let share = again.run(.share(client: "app"), at: 10)
        #expect(share.accepted?.prompt == nil)
        #expect(share.effects.openedPrompts.isEmpty)
        #expect(again.auth().status == .whileUsing && again.auth().once)
    }

    @Test func aShareWaitsForAPendingPromptAndItsPromptClosesWhenMoot() {
        var engine = E.engine(E.client())
        _ = engine.run(.request(client: "app", kind: .whileUsing))
        let busy = engine.run(.share(client: "app"), at: 1)
        #expect(busy.accepted?.changed == false)
        #expect(engine.prompts.map(\.kind) == [.whileUsing])

        var other = E.engine(E.client())
        _ = other.run(.share(client: "app"))
        let authorized = other.run(.authorize(client: "app", status: .whileUsing), at: 1)
        #expect(authorized.effects.closedPrompts.map(\.kind) == [.share])
        #expect(other.prompts.isEmpty)
    }

    @Test func anAuthorizedClientIsPutInUseWithoutAPrompt() {
        var engine = E.engine(E.client(authorization: .whileUsing, inUse: false))
        let result = engine.run(.share(client: "app"))
        #expect(result.effects.openedPrompts.isEmpty)
        #expect(engine.status(now: E.t0).clients[0].inUse)
    }
}

@Suite struct ResetTests {
    typealias E = TestEngine

    @Test func resetReturnsToTheConfiguredFirstStartValuesAndForgetsThePromptsShown() throws {
        var engine = E.engine([E.client(precise: true, authorization: .ask)], seed: 5)
        _ = engine.run(.authorize(client: "app", status: .whileUsing))
        _ = engine.run(.request(client: "app", kind: .always))  // the one upgrade prompt
        _ = engine.run(.answer(client: "app", answer: .keepWhileUsing))
        _ = engine.run(.accuracy(client: "app", full: false))
        _ = engine.run(.authorize(client: "app", status: .ask))
        _ = engine.run(.share(client: "app"))
        _ = engine.run(.answer(client: "app", answer: .allow))  // share consent, once
        _ = engine.feed(E.fix(1))  // a reduced delivery: the secret's clocks move
        let secret = try #require(engine.savedState.client("app")?.reduced)
        #expect(engine.savedState.client("app")?.upgradePromptShown == true)
        #expect(engine.savedState.client("app")?.shareConsent == true)

        let result = engine.run(.reset(client: "app"), at: 2)
        let outcome = try #require(result.accepted)
        #expect(outcome.changed)
        #expect(outcome.message.contains("reset"))
        let event = try #require(result.effects.authorizationEvents.first)
        #expect(event.status == .ask && !event.once && event.accuracy == .full)
        #expect(result.effects.persists == 1)
        let saved = try #require(engine.savedState.client("app"))
        #expect(saved.status == .ask && saved.fullAccuracy && !saved.provisional)
        #expect(!saved.upgradePromptShown && !saved.shareConsent)
        #expect(saved.reduced == secret, "the reduced-accuracy secret survives a reset")

        // Forgotten: the share prompt and the upgrade prompt come back.
        #expect(engine.run(.share(client: "app"), at: 3).accepted?.prompt?.kind == .share)
        _ = engine.run(.answer(client: "app", answer: .deny), at: 4)
        _ = engine.run(.authorize(client: "app", status: .whileUsing), at: 5)
        #expect(engine.run(.request(client: "app", kind: .always), at: 6).accepted?.prompt?.kind == .alwaysUpgrade)

        // A second reset with nothing to undo changes nothing.
        var fresh = E.engine(E.client(precise: false, authorization: .always))
        let nothing = fresh.run(.reset(client: "app"))
        #expect(nothing.accepted?.changed == false)
        #expect(nothing.effects.isEmpty)
    }

    @Test func resetEndsTemporaryGrantsAndIsRefusedForARestrictedClient() throws {
        var engine = E.engine(E.client(precise: false, authorization: .always))
        _ = engine.run(.requestFullAccuracy(client: "app", purpose: "survey"))
        _ = engine.run(.answer(client: "app", answer: .allow))
        #expect(engine.auth().accuracy == .temporaryFull(purpose: "survey"))
        let result = engine.run(.reset(client: "app"), at: 1)
        #expect(result.effects.authorizationEvents.map(\.accuracy) == [.reduced])

        var locked = E.engine(E.client(authorization: .always), restricted: ["app"])
        #expect(locked.run(.reset(client: "app")).error?.code == .restricted)
        var none = E.engine(E.client())
        #expect(none.run(.reset(client: "ghost")).error?.code == .unknownClient)
    }
}

@Suite struct ReducedLocateTests {
    typealias E = TestEngine

    @Test func aLocateWithinTheIntervalGetsTheCoarseFixAlreadyDeliveredInItAtOnce() throws {
        var engine = E.engine(E.client(precise: false, authorization: .always, updating: false, reducedInterval: 900))
        _ = engine.run(.locate(client: "app", timeout: 30))
        let first = try #require(engine.feed(E.fix(0)).deliveries.first)
        #expect(first.accuracy == .reduced && !first.again)
        // Without a locate nothing more comes in the interval.
        #expect(engine.feed(E.fix(60, north: 3000)).deliveries.isEmpty)
        // A locate 2 minutes later: answered at once with the same coarse value, marked as given
        // again (its log has it), not in 13 minutes and not only with the next fix.
        let located = engine.run(.locate(client: "app", timeout: 30), at: 120)
        var again = first
        again.again = true
        #expect(located.effects.deliveries == [again])
        #expect(located.accepted?.message.contains("again at once") == true)
        #expect(engine.status(now: E.t0 + 121).clients[0].locatePending == false)
        #expect(engine.tick(at: 200).errors().isEmpty, "the locate is done: no location-unknown")
        #expect(engine.feed(E.fix(122, north: 3000)).deliveries.isEmpty)
        // Once the interval has passed a locate gets a new coarse fix.
        #expect(engine.run(.locate(client: "app", timeout: 30), at: 900).effects.deliveries.isEmpty)
        let fresh = try #require(engine.feed(E.fix(900, north: 3000)).deliveries.first)
        #expect(fresh.fix.time == E.t0 + 900 && !fresh.again)
        #expect(fresh.fix.latitude != first.fix.latitude)
    }

    @Test func anUpdatingClientStaysRateLimitedButItsLocateIsAnswered() throws {
        var engine = E.engine(E.client(precise: false, authorization: .always, reducedInterval: 900))
        let first = try #require(engine.feed(E.fix(0)).deliveries.first)
        #expect(engine.feed(E.fix(30)).deliveries.isEmpty)
        #expect(engine.run(.locate(client: "app", timeout: 30), at: 40).effects.deliveries.map(\.fix) == [first.fix])
        #expect(engine.feed(E.fix(41)).deliveries.isEmpty)
    }

    /// #48 item 1: a reduced client that stops and starts again within its interval (a weather
    /// app started twice in a minute, on any face) gets the interval's position at once.
    @Test func aReducedClientStartedAgainWithinTheIntervalGetsItsPositionAtOnce() throws {
        var engine = E.engine(E.client(precise: false, authorization: .always, reducedInterval: 900))
        let first = try #require(engine.feed(E.fix(0)).deliveries.first)
        _ = engine.run(.stop(client: "app"), at: 30)
        let started = engine.run(.start(client: "app"), at: 60)
        #expect(started.effects.deliveries.map(\.fix) == [first.fix])
        #expect(started.effects.deliveries.map(\.again) == [true])
        #expect(engine.feed(E.fix(61)).deliveries.isEmpty, "still one position per interval")
        // Already updating: nothing again.
        #expect(engine.run(.start(client: "app"), at: 70).effects.deliveries.isEmpty)
        // After the interval, a fresh start waits for the next fix, which is new.
        _ = engine.run(.stop(client: "app"), at: 100)
        #expect(engine.run(.start(client: "app"), at: 900).effects.deliveries.isEmpty)
        #expect(engine.feed(E.fix(901)).deliveries.map(\.again) == [false])
    }

    @Test func noPositionAgainWhereNoneMayGo() throws {
        // Full accuracy: a start waits for the next fix as ever.
        var full = E.engine(E.client(authorization: .always))
        _ = full.feed(E.fix(0))
        _ = full.run(.stop(client: "app"), at: 1)
        #expect(full.run(.start(client: "app"), at: 2).effects.deliveries.isEmpty)
        // While-using out of use: nothing, though the interval runs.
        var reduced = E.engine(E.client(precise: false, authorization: .whileUsing, reducedInterval: 900))
        #expect(reduced.feed(E.fix(0)).deliveries.count == 1)
        _ = reduced.run(.stop(client: "app"), at: 1)
        _ = reduced.run(.session(client: "app", inUse: false), at: 2)
        #expect(reduced.run(.start(client: "app"), at: 3).effects.deliveries.isEmpty)
        #expect(reduced.run(.locate(client: "app", timeout: 30), at: 4).effects.deliveries.isEmpty)
        // Services off: the command is refused, nothing delivered.
        _ = reduced.run(.session(client: "app", inUse: true), at: 5)
        _ = reduced.run(.services(on: false), at: 6)
        #expect(reduced.run(.locate(client: "app", timeout: 30), at: 7).effects.deliveries.isEmpty)
    }
}
