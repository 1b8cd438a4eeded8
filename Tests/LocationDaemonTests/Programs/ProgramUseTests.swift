import LocationConfig
import LocationCore
@testable import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// `ProgramUse`: programs coming and going become the client's app-side
/// commands, sent as the client's app and never as the operator.
@Suite(.timeLimit(.minutes(10))) struct ProgramUseTests {
    @Test func aProgramsComingAndGoingAreTheClientsAppSideSentAsItsApp() async throws {
        let config = try DaemonConfig.parse("[client.qgis]\ngpsd_socket = /run/locationd/qgis.sock\n", file: "test")
        let endpoint = try #require(ProgramEndpoint.all(config).endpoints.first)
        let handler = FakeControlHandler(clients: ["qgis"])
        let told = Mutex<[String]>([])
        let program = ControlPeer(pid: 4242, uid: 1000, gid: 1000, mayChange: false)
        let use = ProgramUse()
        use.post(.began(endpoint, peer: program, holder: 7, tell: { sentence in told.withLock { $0.append(sentence) } }))
        use.post(.ended(endpoint, peer: program, holder: 7))
        use.finish()
        await use.run(handler: handler)
        // The program's connection holds the client in the core's registry, and lets it go.
        let holds = handler.holds.map { "\($0.held ? "hold" : "release") \($0.client) \($0.holder)" }
        #expect(holds == ["hold qgis program 7", "release qgis program 7"], "\(holds)")
        #expect(handler.holds.allSatisfy { $0.holder.updates })
        let sent = handler.requests.map { $0.json.serialized }
        #expect(
            sent == [
                #"{"cmd":"session","client":"qgis","state":"begin"}"#, #"{"cmd":"status","client":"qgis"}"#,
                #"{"cmd":"session","client":"qgis","state":"end"}"#,
            ], "\(sent)")
        for peer in handler.peers {
            #expect(!peer.mayChange && peer.apps == ["qgis"] && peer.uid == 1000 && peer.pid == 4242, "\(peer)")
        }
        // The client is `ask`: the program is told, with the operator's command.
        let sentence = try #require(told.withLock { $0 }.first)
        #expect(sentence.contains("the operator can change that with: locationctl authorize qgis while-using"), "\(sentence)")
    }
}
