import LocationCore
import LocationProtocol
import LocationValues
@testable import LocationDaemon
import Testing
import TestSupport

/// The output seam as a new face meets it: registered in the faces list, it is handed every
/// delivery, sky view and grant change the engine's owner carries, counts in the access
/// report, and its status section comes after the others'.
@Suite(.timeLimit(.minutes(10))) struct OutputFaceTests {
    /// A face the daemon knows nothing of, recording what it is handed.
    final class RecordingFace: OutputFace {
        struct Section: StatusSection {
            var delivered: Int
            var jsonMembers: [(String, JSONValue)] { [("recording", .number(Double(delivered)))] }
            func only(client: String) -> Section { self }
            func seen(through disclosure: Disclosure) -> Section? { self }
            static let read: StatusSections.Reader = { _ in nil }
        }

        var taking = true
        private(set) var delivered: [Delivery] = []
        private(set) var skies: [[String]] = []
        private(set) var regranted: [String] = []
        private(set) var carries = 0
        private(set) var report: AccessLedger?

        let reportSinks = [ReportSink(rawValue: "recording")]
        var wantsDeliveries: Bool { taking }
        var wantsSky: Bool { taking }
        func deliver(_ deliveries: FaceDeliveries) { deliveries.forEach { delivered.append($0) } }
        func grantChanged(_ client: String) { regranted.append(client) }
        func deliverSky(_ view: SkyView, to clients: [String]) { skies.append(clients) }
        func carried() { carries += 1 }
        func attach(_ report: AccessLedger) { self.report = report }
        var statusSection: (any StatusSection)? { Section(delivered: delivered.count) }
    }

    @Test func aNewFaceIsHandedWhatTheEngineOwnerCarriesAndShowsItsSection() throws {
        let dir = try ScratchDirectory("face")
        let face = RecordingFace()
        let owner = try EngineOwner(
            config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock, sourceName: "test", faces: [face])
        defer { owner.shutdown() }
        #expect(face.report != nil, "the access ledger is attached")

        owner.ingest(.fix(walkFix(0)))
        #expect(face.delivered.map(\.client) == ["logger"])
        #expect(face.delivered.first?.fix.time == walkFix(0).time)
        #expect(face.carries >= 1)
        owner.ingest(.sky(SkyView(satellitesUsed: 8, satellitesVisible: 12)))
        #expect(face.skies == [["logger"]], "the full-accuracy client delivering from that receiver")

        _ = owner.handle(request(.authorize(client: "logger", status: .never)), from: rootPeer)
        #expect(face.regranted == ["logger"])
        owner.ingest(.fix(walkFix(1)))
        #expect(face.delivered.count == 1, "a client that may not see positions gets none, here as in its log")

        let members = try #require(owner.statusReport().json.objectValue)
        #expect(members.last?.0 == "recording" && members.last?.1 == .number(1), "\(members.map(\.0))")

        face.taking = false
        _ = owner.handle(request(.authorize(client: "logger", status: .always)), from: rootPeer)
        owner.ingest(.fix(walkFix(2)))
        #expect(face.delivered.count == 1, "a face that takes no deliveries is handed none")
    }
}
