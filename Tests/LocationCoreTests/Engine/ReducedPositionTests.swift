import Testing

@testable import LocationCore

/// `Engine.reducedPosition`: the reduced position a face shows a client object that asked for a
/// city is the client's own — the one the engine delivers when the client wants reduced, one
/// secret per client — and the same again within `reduced_interval` (#47, #48).
@Suite struct ReducedPositionTests {
    typealias E = TestEngine

    @Test func itIsThePositionTheEngineWouldDeliverWereTheClientReducedAndTheSameWithinItsInterval() throws {
        var full = E.engine(E.client(authorization: .whileUsing))
        var reduced = E.engine(E.client(accuracy: .reduced, authorization: .whileUsing))
        let delivered = try #require(reduced.feed(E.fix(1)).deliveries.first)
        #expect(delivered.accuracy == .reduced)
        let first = full.reducedPosition(of: "app", for: E.fix(1), now: E.t0 + 1)
        let shown = try #require(first)
        #expect(shown == delivered.fix, "the client's own secret and grid, as its reduced deliveries")
        // Within the interval, the same position whatever the fix (and for a face that has no fix yet).
        #expect(full.reducedPosition(of: "app", for: E.fix(60, north: 5000), now: E.t0 + 60) == shown)
        #expect(full.reducedPosition(of: "app", for: nil, now: E.t0 + 899) == shown)
        // After it, the next fix, reduced anew; with no fix, none.
        #expect(full.reducedPosition(of: "app", for: nil, now: E.t0 + 901) == nil)
        let next = full.reducedPosition(of: "app", for: E.fix(902, north: 5000), now: E.t0 + 902)
        #expect(next != nil && next != shown && next?.horizontalError == 2000)
        #expect(full.reducedPosition(of: "other", for: E.fix(903), now: E.t0 + 903) == nil)
    }
}
