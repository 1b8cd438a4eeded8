import Testing
@testable import LocationConfig
@testable import LocationCore
@testable import LocationProtocol

/// `Engine.rawCaptureClients` (`raw_log`, locationd.conf(5)): a receiver's bytes go to a client's
/// capture only while it may have full-accuracy fixes of that receiver.
@Suite struct RawCaptureGateTests {
    typealias E = TestEngine

    static func capturing(_ name: String, precise: Bool = true, authorization: AuthorizationStatus = .always,
                          updating: Bool = true, receiver: String? = nil) -> ClientSettings {
        var client = E.client(name, precise: precise, authorization: authorization, updating: updating)
        client.rawLog = "raw/%r.raw"
        client.receiver = receiver
        return client
    }

    @Test func onlyAuthorizedUpdatingFullAccuracyClientsOfThatReceiverTakeTheBytes() {
        let engine = E.engine([
            Self.capturing("survey"),
            Self.capturing("rough", precise: false),
            Self.capturing("asleep", updating: false),
            Self.capturing("denied", authorization: .never),
            Self.capturing("pinned", receiver: "/dev/ttyUSB1"),
            E.client("nolog", authorization: .always),
        ])
        #expect(engine.rawCaptureClients(device: "/dev/ttyACM0") == ["survey"])
        #expect(engine.rawCaptureClients(device: "/dev/ttyUSB1") == ["survey", "pinned"])
    }

    @Test func locationServicesOffStopsEveryCapture() {
        var engine = E.engine([Self.capturing("survey")])
        #expect(engine.rawCaptureClients(device: "/dev/ttyACM0") == ["survey"])
        _ = engine.run(.services(on: false), at: 1)
        #expect(engine.rawCaptureClients(device: "/dev/ttyACM0").isEmpty)
        _ = engine.run(.services(on: true), at: 2)
        _ = engine.run(.stop(client: "survey"), at: 3)
        #expect(engine.rawCaptureClients(device: "/dev/ttyACM0").isEmpty, "not updating")
    }
}
