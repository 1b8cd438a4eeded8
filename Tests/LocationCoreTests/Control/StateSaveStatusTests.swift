import Testing
import TestSupport
@testable import LocationCore
@testable import LocationProtocol

/// #32: what a state that cannot be saved says — which decisions a restart would undo, the
/// reply's warning, the status line, and its JSON both ways.
@Suite struct StateSaveStatusTests {
    static func client(_ name: String, _ status: AuthorizationStatus, precise: Bool = true) -> SavedClientState {
        SavedClientState(
            name: name, status: status, provisional: false, fullAccuracy: precise, upgradePromptShown: false,
            reduced: ReducedAccuracyState(random: Xoshiro256(seed: 1)))
    }

    static let onDisk = SavedState(services: true, clients: [client("logger", .always), client("rough", .whileUsing)])

    @Test func aRestartWouldUndoEachDecisionTheFileLacksAndNothingElse() {
        var now = Self.onDisk
        #expect(now.undone(bySaved: Self.onDisk).isEmpty)
        now.clients[0].status = .never
        now.clients[1].fullAccuracy = false
        now.services = false
        #expect(
            now.undone(bySaved: Self.onDisk) == [
                "Location Services off (a restart brings back on)",
                "logger: never (a restart brings back always)",
                "rough: precise location off (a restart brings back on)",
            ])
        #expect(now.undone(bySaved: nil).first?.hasPrefix("everything: there is no state file yet") == true)
    }

    @Test func theWarningAndTheStatusLineSayWhyAndWhatARestartBringsBack() throws {
        let failing = StateSaveStatus(
            ok: false, path: "/var/lib/locationd/state.json", error: "create …: Read-only file system", since: Samples.t0,
            unsaved: ["logger: never (a restart brings back always)"])
        let warning = try #require(failing.warning)
        #expect(
            warning == "not saved: create …: Read-only file system; a restart now would undo: "
                + "logger: never (a restart brings back always); the daemon saves it as soon as "
                + "/var/lib/locationd/state.json can be written again")
        #expect(failing.failureLine?.hasPrefix("cannot save the state to /var/lib/locationd/state.json since 2026-03-14 ") == true)
        let fine = StateSaveStatus(ok: true, path: "/var/lib/locationd/state.json")
        #expect(fine.warning == nil && fine.failureLine == nil)
        #expect(fine.json.serialized == #"{"ok":true,"path":"/var/lib/locationd/state.json"}"#)
    }

    @Test(arguments: [
        StateSaveStatus(ok: true, path: "/s/state.json"),
        StateSaveStatus(ok: false, path: "/s/state.json", error: "rename: EROFS", since: Samples.t0, unsaved: ["a", "b"]),
        StateSaveStatus(ok: false, path: "/s/state.json", error: "rename: EROFS", since: Samples.t0),
    ])
    func roundTripsThroughJSON(status: StateSaveStatus) throws {
        #expect(try StateSaveStatus(json: status.json) == status)
    }

    @Test func aChangeReplyIsMarkedOnlyWhileSavingFails() {
        let reply = ControlReply.ok(id: 1, fields: [("changed", true), ("message", "logger: always → never")])
        let failing = StateSaveStatus(ok: false, path: "/s/state.json", error: "EROFS", since: Samples.t0)
        #expect(reply.noting(failing)["saved"] == .bool(false))
        #expect(reply.noting(failing).saveWarning?.hasPrefix("not saved: EROFS; ") == true)
        #expect(reply.noting(StateSaveStatus(ok: true, path: "/s/state.json"))["saved"] == nil)
        #expect(ControlReply.error(id: 1, code: "denied", message: "no").noting(failing)["saved"] == nil)
    }
}
