import LocationProtocol
import LocationTools
import Testing
import TestSupport

/// What `locationctl locate` says from the status (#39 item 3): at once when no position can
/// come, with the step that would change it for this reader; while waiting, what for and how long.
@Suite struct LocateWaitTests {
    static func report(_ client: ClientStatus, source: SourceState = .fix, reader: ControlRole? = nil) -> StatusReport {
        var status = Samples.status
        status.source = source
        status.clients = [client]
        var report = StatusReport(status: status, time: Samples.t0, sourceName: "gpsd 127.0.0.1:2947")
        report.reader = reader
        return report
    }

    static func client(
        _ name: String = "survey", eligible: Bool, reason: String, suggestion: Command?, locateLeft: Double? = nil
    ) -> ClientStatus {
        var client = Samples.status.clients[0]
        client.authorization.client = name
        client.eligible = eligible
        client.delivering = false
        client.reason = reason
        client.suggestion = suggestion
        client.locatePending = locateLeft != nil
        client.locateLeft = locateLeft
        return client
    }

    @Test func aClientNotInUseFailsAtOnceWithTheCauseAndTheStep() throws {
        let notInUse = Self.client(eligible: false, reason: "while-using, and not in use", suggestion: .session(client: "survey", inUse: true))
        let operatorText = try #require(LocateWait.blocker(Self.report(notInUse, reader: ControlRole(isOperator: true)), client: "survey"))
        #expect(operatorText == "locationctl: no location can come to survey: while-using, and not in use\n→ run: locationctl session survey begin\n")
        // Its app is told the form that holds the session.
        let app = ControlRole(isOperator: false, apps: ["survey"])
        let appText = try #require(LocateWait.blocker(Self.report(notInUse, reader: app), client: "survey"))
        #expect(appText.contains("→ run: locationctl session survey -- COMMAND... (or: locationctl watch survey --in-use)"), "\(appText)")
    }

    @Test(arguments: [
        ("Location Services are off", Command.services(on: true), "locationctl services on"),
        ("the user denied location (never)", Command.authorize(client: "survey", status: .whileUsing), "locationctl authorize survey while-using"),
    ])
    func servicesOffAndNotAuthorizedFailAtOnce(reason: String, step: Command, line: String) throws {
        let text = try #require(LocateWait.blocker(Self.report(Self.client(eligible: false, reason: reason, suggestion: step)), client: "survey"))
        #expect(text.contains(reason) && text.contains(line), "\(text)")
    }

    @Test func aClientThatIsOnlyNotUpdatingMayStillLocate() {
        let stopped = Self.client(eligible: false, reason: "updates are stopped", suggestion: .start(client: "survey"))
        #expect(LocateWait.blocker(Self.report(stopped), client: "survey") == nil)
    }

    @Test func noConnectedReceiverFailsAtOnce() throws {
        let fine = Self.client(eligible: true, reason: "delivering", suggestion: nil)
        let text = try #require(LocateWait.blocker(Self.report(fine, source: .connecting), client: "survey"))
        #expect(text.hasPrefix("locationctl: no location can come to survey now: no receiver is connected (gpsd 127.0.0.1:2947)"), "\(text)")
        #expect(LocateWait.blocker(Self.report(fine, source: .noFix), client: "survey") == nil)
    }

    @Test func theWaitSaysWhatItWaitsForAndHowLongIsLeft() {
        let waiting = Self.client(
            eligible: true, reason: ClientStatus.locatingPrefix + "no fix from the receiver for 3 s", suggestion: nil, locateLeft: 26.2)
        #expect(LocateWait.progress(waiting) == "locate survey: waiting for a fix (no fix from the receiver for 3 s), 27 s left")
        #expect(LocateWait.reason(waiting) == "no fix from the receiver for 3 s")
    }
}
