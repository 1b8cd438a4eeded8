@testable import LocationCore
import Testing

/// A locate that times out names the last reason a fix was not delivered (#39 item 3), not
/// "no usable fix" while usable fixes were arriving.
@Suite struct LocateTimeoutTests {
    typealias E = TestEngine

    static func timeoutMessage(_ engine: inout Engine, at seconds: Double) -> String? {
        engine.tick(at: seconds).events.compactMap { event -> String? in
            if case .error(_, .locationUnknown, let message) = event { return message }
            return nil
        }.first
    }

    @Test func fixesHeldBackByTheAccuracyGateAreTheNamedReason() {
        var engine = E.engine(E.client(accuracy: .tenMeters, authorization: .always, updating: false))
        _ = engine.run(.locate(client: "app", timeout: 3), at: 0)
        for second in 1...2 { _ = engine.feed(E.fix(Double(second), error: 50)) }
        let message = Self.timeoutMessage(&engine, at: 3.5)
        #expect(message?.hasPrefix("no fix was delivered within 3 s of locate: fixes are ±50") == true, "\(message ?? "none")")
    }

    @Test func aClientNotInUseIsTheNamedReason() {
        var engine = E.engine(E.client(authorization: .whileUsing, updating: false, inUse: false))
        _ = engine.run(.locate(client: "app", timeout: 2), at: 0)
        _ = engine.feed(E.fix(1))
        let message = Self.timeoutMessage(&engine, at: 2.5)
        #expect(message == "no fix was delivered within 2 s of locate: while-using, and not in use", "\(message ?? "none")")
    }

    @Test func theStatusSaysHowLongAPendingLocateHasLeft() {
        var engine = E.engine(E.client(authorization: .always, updating: false))
        _ = engine.run(.locate(client: "app", timeout: 30), at: 0)
        #expect(engine.status(now: E.t0 + 12).clients[0].locateLeft == 18)
        #expect(engine.status(now: E.t0 + 12).clients[0].reason.hasPrefix(Engine.locatingPrefix))
        _ = engine.feed(E.fix(13))
        #expect(engine.status(now: E.t0 + 14).clients[0].locateLeft == nil)
    }
}
