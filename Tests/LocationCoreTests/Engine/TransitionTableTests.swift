import Testing
@testable import LocationCore
@testable import LocationProtocol

/// docs/authorization.md §3, one test per row of the transition table, in the table's order.
@Suite struct TransitionTableTests {
    typealias E = TestEngine

    // Row: ask | request while-using | prompt pending (kind while-using) | prompt
    @Test func askRequestWhileUsingOpensWhileUsingPrompt() throws {
        var engine = E.engine(E.client())
        let result = engine.run(.request(client: "app", kind: .whileUsing))
        let outcome = try #require(result.accepted)
        #expect(outcome.changed)
        #expect(outcome.prompt?.kind == .whileUsing)
        #expect(result.effects.openedPrompts.map(\.kind) == [.whileUsing])
        #expect(result.effects.openedPrompts.first?.text == "Shows where you are")
        #expect(result.effects.authorizationEvents.isEmpty)
        #expect(engine.prompts.map(\.kind) == [.whileUsing])
        #expect(engine.auth().status == .ask)
    }

    // Row: ask | request always | prompt pending (kind always) | prompt
    @Test func askRequestAlwaysOpensAlwaysPrompt() throws {
        var engine = E.engine(E.client())
        let result = engine.run(.request(client: "app", kind: .always))
        #expect(result.accepted?.prompt?.kind == .always)
        #expect(result.effects.openedPrompts.map(\.kind) == [.always])
        #expect(result.effects.openedPrompts.first?.text == "Tracks in the background")
        #expect(result.effects.authorizationEvents.isEmpty)
        #expect(engine.prompts.first?.answers == [.allowOnce, .allowWhileUsing, .deny])
    }

    /// A client brought into each non-ask state, with the request the row is about.
    enum NotAsk: String, CaseIterable {
        case never, whileUsingAskingWhileUsing, always, provisionalAlways, once, restricted, servicesOff

        func prepare() -> Engine {
            switch self {
            case .never: return E.engine(E.client(authorization: .never))
            case .whileUsingAskingWhileUsing: return E.engine(E.client(authorization: .whileUsing))
            case .always: return E.engine(E.client(authorization: .always))
            case .provisionalAlways:
                var e = E.engine(E.client())
                _ = e.run(.request(client: "app", kind: .always))
                _ = e.run(.answer(client: "app", answer: .allowWhileUsing))
                return e
            case .once:
                var e = E.engine(E.client())
                e.allowShare()
                _ = e.run(.share(client: "app"))
                return e
            case .restricted: return E.engine(E.client(authorization: .always), restricted: ["app"])
            case .servicesOff: return E.engine(E.client(), services: false)
            }
        }

        var kind: RequestKind { self == .whileUsingAskingWhileUsing ? .whileUsing : .always }
    }

    // Row: any but ask (save the while-using row below) | request … | nothing; reply says why | none
    @Test(arguments: NotAsk.allCases)
    func requestWhenNotAskChangesNothingAndSaysWhy(_ state: NotAsk) throws {
        var engine = state.prepare()
        let before = engine.auth()
        let savedBefore = engine.savedState
        let result = engine.run(.request(client: "app", kind: state.kind), at: 1)
        let outcome = try #require(result.accepted)
        #expect(!outcome.changed)
        #expect(outcome.prompt == nil)
        #expect(!outcome.message.isEmpty)
        #expect(result.effects.isEmpty)
        #expect(engine.auth() == before)
        #expect(engine.savedState == savedBefore)
        // The reply names the reason: the status, the policy or the switch.
        let why: String =
            switch state {
            case .restricted: "restricted"
            case .servicesOff: "Location Services are off"
            case .never: "never"
            case .whileUsingAskingWhileUsing, .once: "while-using"
            case .always, .provisionalAlways: "always"
            }
        #expect(outcome.message.contains(why))
    }

    // Row: any | request … without the usage text in config | error missing-usage-description | none
    @Test(arguments: [
        (RequestKind.whileUsing, nil as String?, "Tracks" as String?),
        (.always, "Shows", nil),
        (.always, nil, nil),
        (.whileUsing, "  ", nil),
    ])
    func requestWithoutUsageTextIsRefused(_ kind: RequestKind, _ usage: String?, _ usageAlways: String?) throws {
        for status in [AuthorizationStatus.ask, .never, .whileUsing, .always] {
            var engine = E.engine(E.client(usage: usage, usageAlways: usageAlways, authorization: status))
            let result = engine.run(.request(client: "app", kind: kind))
            let error = try #require(result.error)
            #expect(error.code == .missingUsageDescription)
            #expect(error.message.contains("usage"))
            #expect(result.effects.isEmpty)
            #expect(engine.prompts.isEmpty)
        }
    }

    // Row: prompt while-using | answer allow-while-using | while-using | authorization
    @Test func allowWhileUsingGrantsWhileUsing() throws {
        var engine = E.engine(E.client())
        _ = engine.run(.request(client: "app", kind: .whileUsing))
        let result = engine.run(.answer(client: "app", answer: .allowWhileUsing))
        #expect(result.accepted?.changed == true)
        let event = try #require(result.effects.authorizationEvents.first)
        #expect(result.effects.authorizationEvents.count == 1)
        #expect(event.status == .whileUsing && !event.once && !event.provisional)
        #expect(result.effects.closedPrompts.map(\.kind) == [.whileUsing])
        #expect(engine.prompts.isEmpty)
        #expect(result.effects.persists == 1)
    }

    // Row: prompt while-using/always | answer allow-once | while-using + once | authorization
    @Test(arguments: [RequestKind.whileUsing, .always])
    func allowOnceGrantsWhileUsingOnce(_ kind: RequestKind) throws {
        var engine = E.engine(E.client())
        _ = engine.run(.request(client: "app", kind: kind))
        let result = engine.run(.answer(client: "app", answer: .allowOnce))
        let event = try #require(result.effects.authorizationEvents.first)
        #expect(event.status == .whileUsing && event.once && !event.provisional)
        #expect(engine.auth().statusDescription == "while-using (once)")
        // Allow Once is never saved: the state file still says ask.
        #expect(engine.savedState.client("app")?.status == .ask)
        #expect(result.effects.persists == 0)
    }

    // Row: prompt while-using/always | answer deny | never | authorization
    @Test(arguments: [RequestKind.whileUsing, .always])
    func denyGivesNever(_ kind: RequestKind) throws {
        var engine = E.engine(E.client())
        _ = engine.run(.request(client: "app", kind: kind))
        let result = engine.run(.answer(client: "app", answer: .deny))
        #expect(result.effects.authorizationEvents.map(\.status) == [.never])
        #expect(engine.savedState.client("app")?.status == .never)
        #expect(result.effects.persists == 1)
    }

    // Row: prompt always | answer allow-while-using | always + provisional | authorization
    @Test func allowWhileUsingOnAlwaysPromptGivesProvisionalAlways() throws {
        var engine = E.engine(E.client())
        _ = engine.run(.request(client: "app", kind: .always))
        let result = engine.run(.answer(client: "app", answer: .allowWhileUsing))
        let event = try #require(result.effects.authorizationEvents.first)
        #expect(event.status == .always && event.provisional && !event.once)
        #expect(engine.savedState.client("app")?.provisional == true)
    }

    // Row: always + provisional | a fix that would be delivered only because of always | not delivered;
    // one upgrade prompt opens (only ever once) | prompt
    @Test func provisionalAlwaysHoldsBackBackgroundFixAndOpensUpgradePromptOnlyOnce() throws {
        var engine = E.engine(E.client())
        _ = engine.run(.request(client: "app", kind: .always))
        _ = engine.run(.answer(client: "app", answer: .allowWhileUsing))
        // In use, provisional always delivers like while-using, and no prompt opens.
        var effects = engine.feed(E.fix(1))
        #expect(effects.delivered().count == 1)
        #expect(effects.openedPrompts.isEmpty)
        _ = engine.run(.session(client: "app", inUse: false), at: 2)
        effects = engine.feed(E.fix(3, north: 50))
        #expect(effects.delivered().isEmpty)
        #expect(effects.openedPrompts.map(\.kind) == [.alwaysUpgrade])
        #expect(effects.persists == 1)
        #expect(engine.prompts.map(\.kind) == [.alwaysUpgrade])
        effects = engine.feed(E.fix(4, north: 100))
        #expect(effects.delivered().isEmpty && effects.openedPrompts.isEmpty)
        // Answered (or not), it never opens again — not even after a restart.
        _ = engine.run(.answer(client: "app", answer: .keepWhileUsing), at: 5)
        _ = engine.run(.authorize(client: "app", status: .always), at: 6)
        var restarted = E.engine([E.client(inUse: false)], saved: engine.savedState)
        #expect(restarted.auth().status == .always)
        #expect(restarted.savedState.client("app")?.upgradePromptShown == true)
        // Always from settings is not provisional: the background fix is delivered, and no prompt opens.
        effects = restarted.feed(E.fix(10))
        #expect(effects.delivered().count == 1)
        #expect(effects.openedPrompts.isEmpty)
    }

    @Test func provisionalUpgradePromptNeedsAFixThatWouldOtherwiseBeDelivered() {
        var engine = E.engine(E.client(accuracy: .tenMeters, updating: false))
        _ = engine.run(.request(client: "app", kind: .always))
        _ = engine.run(.answer(client: "app", answer: .allowWhileUsing))
        _ = engine.run(.session(client: "app", inUse: false))
        // Not updating: no fix would be delivered, so no prompt.
        #expect(engine.feed(E.fix(1)).openedPrompts.isEmpty)
        _ = engine.run(.start(client: "app"), at: 2)
        // Fails the accuracy gate: would not be delivered anyway.
        #expect(engine.feed(E.fix(3, error: 50)).openedPrompts.isEmpty)
        // Unusable.
        #expect(engine.feed(E.fix(4, mode: .noFix)).openedPrompts.isEmpty)
        #expect(engine.feed(E.fix(5)).openedPrompts.count == 1)
    }

    // Row: upgrade prompt | keep-while-using | while-using (no provisional) | authorization
    @Test func upgradeKeepWhileUsingGivesPlainWhileUsing() throws {
        var engine = E.engine(E.client(authorization: .whileUsing))
        _ = engine.run(.request(client: "app", kind: .always))
        let result = engine.run(.answer(client: "app", answer: .keepWhileUsing))
        #expect(result.effects.closedPrompts.map(\.kind) == [.alwaysUpgrade])
        // From permanent while-using nothing visible changes: no authorization event.
        #expect(result.effects.authorizationEvents.isEmpty)
        #expect(engine.auth().status == .whileUsing && !engine.auth().provisional)

        var provisional = E.engine(E.client())
        _ = provisional.run(.request(client: "app", kind: .always))
        _ = provisional.run(.answer(client: "app", answer: .allowWhileUsing))
        _ = provisional.run(.session(client: "app", inUse: false))
        _ = provisional.feed(E.fix(1))
        let answered = provisional.run(.answer(client: "app", answer: .keepWhileUsing), at: 2)
        let event = try #require(answered.effects.authorizationEvents.first)
        #expect(event.status == .whileUsing && !event.provisional)
    }

    // Row: upgrade prompt | change-to-always | always | authorization
    @Test func upgradeChangeToAlwaysGivesAlways() throws {
        var engine = E.engine(E.client(authorization: .whileUsing))
        _ = engine.run(.request(client: "app", kind: .always))
        let result = engine.run(.answer(client: "app", answer: .changeToAlways))
        let event = try #require(result.effects.authorizationEvents.first)
        #expect(event.status == .always && !event.provisional)
        #expect(engine.savedState.client("app")?.status == .always)
        // Now a background fix is delivered.
        _ = engine.run(.session(client: "app", inUse: false))
        #expect(engine.feed(E.fix(1)).delivered().count == 1)
    }

    // Row: while-using (permanent) | request always | upgrade prompt at once | prompt
    @Test func whileUsingRequestAlwaysOpensUpgradePromptAtOnce() throws {
        var engine = E.engine(E.client(authorization: .whileUsing))
        let result = engine.run(.request(client: "app", kind: .always))
        #expect(result.accepted?.prompt?.kind == .alwaysUpgrade)
        #expect(result.effects.openedPrompts.map(\.kind) == [.alwaysUpgrade])
        #expect(result.effects.authorizationEvents.isEmpty)
        #expect(engine.prompts.first?.answers == [.keepWhileUsing, .changeToAlways])
        // Shown once ever, as iOS: a second request after the answer asks nothing.
        _ = engine.run(.answer(client: "app", answer: .keepWhileUsing))
        let again = engine.run(.request(client: "app", kind: .always))
        #expect(again.accepted?.changed == false)
        #expect(again.effects.isEmpty)
    }

    // Row: while-using + once | request always | nothing | none
    @Test func onceRequestAlwaysDoesNothing() throws {
        var engine = E.engine(E.client())
        _ = engine.run(.request(client: "app", kind: .whileUsing))
        _ = engine.run(.answer(client: "app", answer: .allowOnce))
        let result = engine.run(.request(client: "app", kind: .always))
        #expect(result.accepted?.changed == false)
        #expect(result.effects.isEmpty)
        #expect(engine.prompts.isEmpty)
    }

    // Row: while-using + once | out of use for once_grace s, or daemon restart | ask | authorization
    @Test func onceEndsAfterGraceOutOfUse() throws {
        var engine = E.engine(E.client(onceGrace: 60))
        engine.allowShare()
        _ = engine.run(.share(client: "app"))
        _ = engine.run(.session(client: "app", inUse: false), at: 100)
        #expect(engine.tick(at: 159).isEmpty)
        // Back in use before the grace ends: the grant survives.
        _ = engine.run(.session(client: "app", inUse: true), at: 159.5)
        #expect(engine.tick(at: 400).authorizationEvents.isEmpty)
        #expect(engine.auth().once)
        _ = engine.run(.session(client: "app", inUse: false), at: 500)
        let effects = engine.tick(at: 560)
        let event = try #require(effects.authorizationEvents.first)
        #expect(event.status == .ask && !event.once)
        #expect(engine.auth().status == .ask)
    }

    @Test func onceGrantedOutOfUseStartsItsGraceAtTheGrant() throws {
        var engine = E.engine(E.client(inUse: false, onceGrace: 60))
        _ = engine.run(.request(client: "app", kind: .whileUsing), at: 0)
        _ = engine.run(.answer(client: "app", answer: .allowOnce), at: 1000)
        #expect(engine.tick(at: 1059).authorizationEvents.isEmpty)
        #expect(engine.tick(at: 1060).authorizationEvents.map(\.status) == [.ask])
    }

    @Test func onceEndsAtDaemonRestart() throws {
        var engine = E.engine(E.client())
        engine.allowShare()
        _ = engine.run(.share(client: "app"))
        #expect(engine.auth().once)
        let restarted = E.engine([E.client()], saved: engine.savedState)
        #expect(restarted.auth().status == .ask)
        #expect(!restarted.auth().once)
    }

    // Row: ask or once | share | while-using + once, and the client is put in use | authorization (if changed)
    @Test func shareFromAskOrOnceGrantsOnceAndPutsClientInUse() throws {
        var engine = E.engine(E.client(inUse: false))
        engine.allowShare()
        let first = engine.run(.share(client: "app"))
        #expect(first.accepted?.changed == true)
        let event = try #require(first.effects.authorizationEvents.first)
        #expect(event.status == .whileUsing && event.once)
        #expect(engine.status(now: E.t0).clients.first?.inUse == true)
        #expect(engine.feed(E.fix(1)).delivered().count == 1)
        // From once: no authorization event (nothing visible changed), back in use.
        _ = engine.run(.session(client: "app", inUse: false), at: 2)
        let second = engine.run(.share(client: "app"), at: 3)
        #expect(second.accepted?.changed == true)
        #expect(second.effects.authorizationEvents.isEmpty)
        #expect(engine.status(now: E.t0).clients.first?.inUse == true)
        // The out-of-use grace was cancelled by being put in use.
        #expect(engine.tick(at: 1000).authorizationEvents.isEmpty)
    }

    @Test func shareClosesAPendingPermissionPrompt() {
        var engine = E.engine(E.client())
        engine.allowShare()
        _ = engine.run(.request(client: "app", kind: .whileUsing))
        let result = engine.run(.share(client: "app"))
        #expect(result.effects.closedPrompts.map(\.kind) == [.whileUsing])
        #expect(engine.prompts.isEmpty)
    }

    // Row: never / restricted | share | error denied (restricted: error restricted, see the restricted row)
    @Test func shareOnNeverIsDenied() throws {
        var engine = E.engine(E.client(authorization: .never))
        let result = engine.run(.share(client: "app"))
        #expect(result.error?.code == .denied)
        #expect(result.error?.message.contains("authorize app") == true)
        #expect(result.effects.isEmpty)
        #expect(engine.auth().status == .never)

        var off = E.engine(E.client(), services: false)
        #expect(off.run(.share(client: "app")).error?.code == .denied)
    }

    // Row: any but restricted | authorize X | stored status X, flags cleared | authorization (if changed)
    @Test(arguments: [AuthorizationStatus.never, .ask, .whileUsing, .always])
    func authorizeStoresStatusAndClearsFlags(_ target: AuthorizationStatus) throws {
        let starts: [(String, (inout Engine) -> Void)] = [
            ("ask", { _ in }),
            ("never", { _ = $0.run(.authorize(client: "app", status: .never)) }),
            ("while-using", { _ = $0.run(.authorize(client: "app", status: .whileUsing)) }),
            ("always", { _ = $0.run(.authorize(client: "app", status: .always)) }),
            (
                "once",
                {
                    $0.allowShare()
                    _ = $0.run(.share(client: "app"))
                }
            ),
            (
                "provisional",
                {
                    _ = $0.run(.request(client: "app", kind: .always))
                    _ = $0.run(.answer(client: "app", answer: .allowWhileUsing))
                }
            ),
        ]
        for (label, prepare) in starts {
            var engine = E.engine(E.client())
            prepare(&engine)
            let before = engine.auth()
            let result = engine.run(.authorize(client: "app", status: target), at: 1)
            let after = engine.auth()
            #expect(after.status == target, "from \(label)")
            #expect(!after.once && !after.provisional, "from \(label)")
            #expect(engine.savedState.client("app")?.status == target)
            let changed = before.status != after.status || before.once || before.provisional
            #expect(result.effects.authorizationEvents.count == (changed ? 1 : 0), "from \(label)")
            #expect(result.accepted?.changed == (label == target.rawValue ? false : true), "from \(label)")
        }
    }

    // Row: restricted | authorize / answer / share | error restricted naming the policy source | none
    @Test func restrictedRefusesAuthorizeAnswerAndShareNamingThePolicy() throws {
        var engine = E.engine(E.client(authorization: .always), restricted: ["app"])
        let commands: [Command] = [
            .authorize(client: "app", status: .always), .answer(client: "app", answer: .allowOnce),
            .share(client: "app"), .accuracy(client: "app", full: false),
        ]
        for command in commands {
            let result = engine.run(command)
            let error = try #require(result.error, "\(command.name)")
            #expect(error.code == .restricted)
            #expect(error.message.contains("[policy] restricted in test.conf"))
            #expect(result.effects.isEmpty)
        }
        #expect(engine.auth().status == .restricted)
        #expect(engine.auth().stored == .always)
    }

    // Row: any | services off / on | effective status never / restored | authorization for each client whose
    // effective status changed
    @Test func servicesOffAndOnChangeEffectiveStatusOfEveryClient() throws {
        var engine = E.engine([
            E.client("a", authorization: .always), E.client("b", authorization: .never),
            E.client("c", authorization: .whileUsing), E.client("d", authorization: .always),
        ], restricted: ["d"])
        _ = engine.run(.share(client: "c"))
        let off = engine.run(.services(on: false))
        #expect(off.effects.authorizationEvents.map(\.client) == ["a", "c"])
        #expect(off.effects.authorizationEvents.allSatisfy { $0.status == .never && $0.reason == .servicesOff })
        #expect(engine.auth("b").status == .never)
        #expect(engine.auth("d").status == .restricted)
        #expect(off.effects.persists == 1)
        let on = engine.run(.services(on: true), at: 1)
        #expect(on.effects.authorizationEvents.map(\.client) == ["a", "c"])
        #expect(engine.auth("a").status == .always)
        #expect(engine.auth("c").status == .whileUsing)
        let again = engine.run(.services(on: true), at: 2)
        #expect(again.accepted?.changed == false)
        #expect(again.effects.isEmpty)
    }

    // Row: reduced | request-full-accuracy KEY, client in use, KEY in config | prompt (kind full-accuracy) | prompt
    @Test func requestFullAccuracyOpensFullAccuracyPrompt() throws {
        var engine = E.engine(E.client(precise: false, authorization: .whileUsing))
        let result = engine.run(.requestFullAccuracy(client: "app", purpose: "survey"))
        let prompt = try #require(result.accepted?.prompt)
        #expect(prompt.kind == .fullAccuracy)
        #expect(prompt.purpose == "survey")
        #expect(prompt.text == "Precise track for a survey")
        #expect(result.effects.openedPrompts == [prompt])
        #expect(result.effects.authorizationEvents.isEmpty)
    }

    // Row: prompt full-accuracy | allow | temporary-full (until out of use for once_grace, or restart) | authorization
    @Test func fullAccuracyAllowGrantsTemporaryFullUntilGraceOrRestart() throws {
        var engine = E.engine(E.client(precise: false, authorization: .whileUsing, onceGrace: 60))
        _ = engine.run(.requestFullAccuracy(client: "app", purpose: "survey"))
        let result = engine.run(.answer(client: "app", answer: .allow))
        let event = try #require(result.effects.authorizationEvents.first)
        #expect(event.accuracy == .temporaryFull(purpose: "survey"))
        #expect(engine.feed(E.fix(1)).deliveries.first?.accuracy == .full)
        // Not saved: a restart is back to reduced.
        #expect(engine.savedState.client("app")?.fullAccuracy == false)
        let restarted = E.engine([E.client(precise: false, authorization: .whileUsing)], saved: engine.savedState)
        #expect(restarted.auth().accuracy == .reduced)
        // Out of use for the grace: back to reduced.
        _ = engine.run(.session(client: "app", inUse: false), at: 10)
        #expect(engine.tick(at: 69).authorizationEvents.isEmpty)
        #expect(engine.tick(at: 70).authorizationEvents.map(\.accuracy) == [.reduced])
    }

    // Row: prompt full-accuracy | deny | stays reduced; the prompt closes | none
    @Test func fullAccuracyDenyKeepsReducedAndClosesPrompt() {
        var engine = E.engine(E.client(precise: false, authorization: .always))
        _ = engine.run(.requestFullAccuracy(client: "app", purpose: "survey"))
        let result = engine.run(.answer(client: "app", answer: .deny))
        #expect(result.effects.closedPrompts.map(\.kind) == [.fullAccuracy])
        #expect(result.effects.authorizationEvents.isEmpty)
        #expect(engine.auth().accuracy == .reduced)
        #expect(engine.prompts.isEmpty)
    }

    // Row: any | request-full-accuracy with unknown KEY, or not in use | error | none
    @Test(arguments: [
        ("unknown-key", CommandError.Code.unknownPurpose),
        ("not-in-use", .notInUse),
    ])
    func requestFullAccuracyErrors(_ situation: String, _ code: CommandError.Code) throws {
        for status in [AuthorizationStatus.ask, .never, .whileUsing, .always] {
            var engine = E.engine(E.client(precise: false, authorization: status, inUse: situation != "not-in-use"))
            let purpose = situation == "unknown-key" ? "racing" : "survey"
            let result = engine.run(.requestFullAccuracy(client: "app", purpose: purpose), at: 1)
            #expect(result.error?.code == code, "\(situation) from \(status)")
            #expect(result.effects.isEmpty)
        }
    }

    // Row: full or temporary full | request-full-accuracy KEY | nothing, no prompt | none | accepted, changed: false
    // (as requestTemporaryFullAccuracyAuthorization completes without error when accuracy is already full)
    @Test(arguments: ["already-full", "already-temporary-full"])
    func requestFullAccuracyWhenAlreadyFullCompletesWithoutAPrompt(_ situation: String) throws {
        for status in [AuthorizationStatus.ask, .never, .whileUsing, .always] {
            var engine = E.engine(E.client(precise: situation == "already-full", authorization: status))
            if situation == "already-temporary-full" {
                _ = engine.run(.authorize(client: "app", status: .whileUsing))
                _ = engine.run(.requestFullAccuracy(client: "app", purpose: "survey"))
                _ = engine.run(.answer(client: "app", answer: .allow))
                _ = engine.run(.authorize(client: "app", status: status == .ask || status == .never ? .always : status))
            }
            let before = engine.auth()
            let result = engine.run(.requestFullAccuracy(client: "app", purpose: "survey"), at: 1)
            let outcome = try #require(result.accepted, "\(situation) from \(status)")
            #expect(!outcome.changed)
            #expect(outcome.prompt == nil)
            #expect(outcome.message.contains("already has"))
            #expect(result.effects.isEmpty)
            #expect(engine.prompts.isEmpty)
            #expect(engine.auth() == before)
        }
    }

    @Test func requestFullAccuracyWhileNotAuthorizedIsDenied() {
        var engine = E.engine(E.client(precise: false, authorization: .never))
        #expect(engine.run(.requestFullAccuracy(client: "app", purpose: "survey")).error?.code == .denied)
    }
}
