import LocationCore
import LocationProtocol
import LocationValues
import Testing
@testable import LocationDaemon

/// systemd's `STATUS=` says only what is true (#8): "logging" with a log that cannot be written
/// says so, with the numbers.
@Suite(.timeLimit(.minutes(10))) struct SystemdStatusLineTests {
    static func client(_ name: String, log: LogWriteStatus?) -> ClientStatus {
        var client = ClientStatus(
            authorization: ClientAuthorization(client: name, status: .always, stored: .always),
            inUse: true, updating: true, locatePending: false, prompt: nil, delivering: true,
            reason: "\(name) is authorized always.", suggestion: nil, lastDelivered: 100, deliveredCount: 4)
        client.logWrite = log
        return client
    }

    static func status(_ clients: [ClientStatus]) -> EngineStatus {
        EngineStatus(
            services: true, source: .fix, lastFix: Fix(time: 100, mode: .threeD, latitude: 1, longitude: 2),
            lastFixAge: 1, clients: clients)
    }

    @Test func aLogThatCannotBeWrittenIsSaidAfterWhatIsLogged() {
        let fine = LogWriteStatus(path: "/l/logger.jsonl", written: 4)
        #expect(
            SystemdStatusLine.text(Self.status([Self.client("logger", log: fine)]), sourceName: "gpsd 127.0.0.1:2947")
                == "logging 3D fixes for 1 client; gpsd 127.0.0.1:2947 connected")
        let full = LogWriteStatus(
            path: "/l/logger.jsonl", written: 4, held: 120, lost: 3, error: "write /l/logger.jsonl: No space left on device",
            since: 90)
        let line = SystemdStatusLine.text(
            Self.status([Self.client("logger", log: full), Self.client("survey", log: full)]), sourceName: "gpsd 127.0.0.1:2947")
        #expect(
            line == "logging 3D fixes for 2 clients; gpsd 127.0.0.1:2947 connected; "
                + "cannot write the log of logger (and 1 more): 120 lines held, 3 lost")
    }
}
