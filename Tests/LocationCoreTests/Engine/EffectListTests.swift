import Testing
@testable import LocationCore
@testable import LocationProtocol

/// `EffectList`, the engine's compact effects: the same effects as `[Effect]`,
/// in order, with a fix delivered to many clients stored once.
@Suite struct EffectListTests {
    typealias E = TestEngine

    @Test func effectsRoundTripInOrder() {
        let effects: [Effect] = [
            .event(.source(.fix)),
            .deliver(Delivery(client: "a", fix: E.fix(1), accuracy: .full)),
            .deliver(Delivery(client: "b", fix: E.fix(1), accuracy: .full)),
            .deliver(Delivery(client: "a", fix: E.fix(2), accuracy: .reduced)),
            .persist,
        ]
        let list = EffectList(effects)
        #expect(list.effects == effects)
        #expect(list.count == 5 && list.deliveries == 3)
        #expect(list.names == ["a", "b"])
        // The fix both clients got in a row is kept once.
        #expect(list.fixes == [E.fix(1), E.fix(2)])
    }

    @Test func theEngineStoresAFixDeliveredToEveryClientOnce() {
        var engine = E.engine([
            E.client("a", authorization: .always), E.client("b", authorization: .always),
            E.client("c", precise: false, authorization: .always),
        ])
        var list = EffectList()
        engine.handle(.fix(E.fix(1)), now: E.t0 + 1, into: &list)
        #expect(list.deliveries == 3)
        // One fix for the two full-accuracy clients, one obfuscated for the reduced one.
        #expect(list.fixes.count == 2)
        #expect(list.effects.deliveries.map(\.client) == ["a", "b", "c"])
        #expect(list.effects.deliveries.map(\.accuracy) == [.full, .full, .reduced])
        // The same input gives the same effects through the [Effect] entry point.
        var again = E.engine([
            E.client("a", authorization: .always), E.client("b", authorization: .always),
            E.client("c", precise: false, authorization: .always),
        ])
        #expect(again.handle(.fix(E.fix(1)), now: E.t0 + 1) == list.effects)
    }

    @Test func newNamesKeepTheDeliveriesAlreadyListed() {
        var list = EffectList()
        list.use(names: ["a", "b"])
        list.deliver(client: 1, fix: list.add(E.fix(1)), accuracy: .full)
        list.use(names: ["b", "c"])
        list.deliver(client: 1, fix: list.add(E.fix(2)), accuracy: .full)
        #expect(list.effects.deliveries.map(\.client) == ["b", "c"])
        #expect(list.effects.deliveries.map(\.fix) == [E.fix(1), E.fix(2)])
    }

    @Test func removeAllEmptiesTheListAndKeepsTheNames() {
        var list = EffectList([.deliver(Delivery(client: "a", fix: E.fix(1), accuracy: .full)), .persist])
        list.removeAll(keepingCapacity: true)
        #expect(list.isEmpty && list.deliveries == 0 && list.fixes.isEmpty && list.others.isEmpty)
        #expect(list.names == ["a"])
    }
}
