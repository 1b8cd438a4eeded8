import Testing
@testable import LocationCore

/// A command for a name that is not configured: the configured names, and the nearest for a typo.
@Suite struct UnknownClientTests {
    typealias E = TestEngine

    @Test func aMistypedNameGetsTheNearestConfiguredOne() {
        var engine = E.engine([E.client("logger"), E.client("camera")])
        let error = engine.run(.start(client: "loger")).error
        #expect(error?.code == .unknownClient)
        #expect(error?.message == #"no client named "loger" (did you mean "logger"?); configured clients: logger, camera"#)
        #expect(engine.run(.start(client: "zzz")).error?.message == #"no client named "zzz"; configured clients: logger, camera"#)
    }
}
