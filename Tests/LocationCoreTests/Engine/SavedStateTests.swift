import Foundation
import Testing
@testable import LocationConfig
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

/// The state file: what is saved, what a restart restores, and `persist` exactly when it changes.
@Suite struct SavedStateTests {
    typealias E = TestEngine

    func roundTrip(_ state: SavedState) throws -> SavedState {
        try SavedState(json: JSONValue.parse(Array(state.json.serialized.utf8)))
    }

    @Test func savedStateRoundTripsThroughJSONExactly() throws {
        var engine = E.engine([E.client("a", precise: false, authorization: .always), E.client("b")])
        _ = engine.feed(E.fix(0))
        _ = engine.feed(E.fix(7200, north: 10))
        let state = engine.savedState
        #expect(try roundTrip(state) == state)
        let text = state.json.serialized
        // 64-bit random state survives any JSON reader as hexadecimal strings.
        #expect(text.contains("\"random\":[\""))
        #expect(text.hasPrefix("{\"version\":2,\"services\":true,\"clients\":[{\"name\":\"a\",\"status\":\"always\""))
    }

    @Test func restartRestoresPermanentStateAndDropsTheTemporary() throws {
        let clients = [
            E.client("perm", precise: true, authorization: .ask),
            E.client("once"),
            E.client("temp", precise: false, authorization: .whileUsing),
            E.client("prov"),
        ]
        var engine = E.engine(clients)
        _ = engine.run(.authorize(client: "perm", status: .always))
        _ = engine.run(.accuracy(client: "perm", full: false))
        engine.allowShare("once")
        _ = engine.run(.share(client: "once"))
        _ = engine.run(.requestFullAccuracy(client: "temp", purpose: "survey"))
        _ = engine.run(.answer(client: "temp", answer: .allow))
        _ = engine.run(.request(client: "prov", kind: .always))
        _ = engine.run(.answer(client: "prov", answer: .allowWhileUsing))
        _ = engine.run(.locate(client: "perm", timeout: 30))
        _ = engine.run(.request(client: "once", kind: .always))  // no prompt: once
        _ = engine.run(.authorize(client: "once", status: .ask), at: 1)
        _ = engine.run(.request(client: "once", kind: .whileUsing), at: 2)  // a pending prompt
        _ = engine.run(.share(client: "once"), at: 3)
        _ = engine.run(.services(on: false), at: 4)
        let saved = try roundTrip(engine.savedState)

        let restarted = E.engine(clients, services: true, saved: saved)
        #expect(restarted.auth("perm").stored == .always)
        #expect(restarted.auth("perm").accuracy == .reduced)
        #expect(restarted.auth("once").stored == .ask)
        #expect(restarted.auth("temp").accuracy == .reduced)
        #expect(restarted.auth("prov").stored == .always)
        #expect(restarted.savedState.client("prov")?.provisional == true)
        #expect(restarted.prompts.isEmpty)
        #expect(restarted.status(now: 0).clients.allSatisfy { !$0.locatePending })
        #expect(restarted.status(now: 0).services == false)
        #expect(restarted.savedState == saved)
    }

    @Test func reducedOffsetSurvivesRestartSoRestartsDoNotHelpAveraging() throws {
        let client = E.client(precise: false, authorization: .always, reducedInterval: 900)
        var engine = E.engine([client], seed: 11)
        let before = try #require(engine.feed(E.fix(0)).delivered().first)
        let saved = try roundTrip(engine.savedState)
        // Another seed: only the saved secret can reproduce the same cell.
        var restarted = E.engine([client], saved: saved, seed: 99)
        #expect(restarted.feed(E.fix(300)).deliveries.isEmpty, "the interval is saved too")
        let after = try #require(restarted.feed(E.fix(900)).delivered().first)
        #expect(after.latitude == before.latitude && after.longitude == before.longitude)
        let kept = try #require(restarted.savedState.client("app")?.reduced)
        #expect(kept.offsetEast == saved.client("app")?.reduced.offsetEast)
        #expect(kept.offsetNorth == saved.client("app")?.reduced.offsetNorth)
        let fresh = try #require(E.engine([client], seed: 99).savedState.client("app")?.reduced)
        #expect(fresh.offsetEast != kept.offsetEast && fresh.offsetNorth != kept.offsetNorth)
    }

    @Test func persistIsEmittedExactlyWhenSavedStateChanges() {
        var engine = E.engine([E.client(precise: false)])
        var last = engine.savedState
        func check(_ effects: [Effect], _ label: String) {
            let now = engine.savedState
            #expect((effects.persists == 1) == (now != last), "\(label)")
            #expect(effects.persists <= 1)
            #expect(effects.last == .persist || effects.persists == 0, "persist comes last: \(label)")
            last = now
        }
        check(engine.run(.request(client: "app", kind: .always)).effects, "request")
        check(engine.run(.answer(client: "app", answer: .allowWhileUsing)).effects, "answer")
        check(engine.feed(E.fix(0)), "reduced delivery")
        check(engine.feed(E.fix(1)), "blocked by the interval")
        check(engine.run(.session(client: "app", inUse: false), at: 2).effects, "session")
        check(engine.feed(E.fix(3)), "upgrade prompt")
        check(engine.run(.answer(client: "app", answer: .changeToAlways), at: 4).effects, "upgrade")
        check(engine.feed(E.fix(3600 * 5)), "drift and delivery")
        check(engine.run(.accuracy(client: "app", full: true), at: 5).effects, "accuracy")
        check(engine.run(.services(on: false), at: 6).effects, "services")
        check(engine.handle(.tick, now: E.t0 + 100), "tick")
    }

    @Test func decodingRefusesANewerFormatAndBadRandomState() throws {
        let good = E.engine([E.client()]).savedState.json.serialized
        func decode(_ text: String) throws -> SavedState { try SavedState(json: JSONValue.parse(Array(text.utf8))) }
        #expect(try decode(good) == E.engine([E.client()]).savedState)
        let newer = good.replacingOccurrences(of: "\"version\":2", with: "\"version\":3")
        #expect(throws: SavedStateError.self) { try decode(newer) }
        let range = try #require(good.range(of: #"\[\"[0-9a-f]{16}\""#, options: .regularExpression))
        var bad = good
        bad.replaceSubrange(range, with: #"["zz""#)
        #expect(throws: SavedStateError.self) { try decode(bad) }
        let zero = good.replacingOccurrences(
            of: #"\[\"[0-9a-f]{16}\",\"[0-9a-f]{16}\",\"[0-9a-f]{16}\",\"[0-9a-f]{16}\"\]"#,
            with: #"["0000000000000000","0000000000000000","0000000000000000","0000000000000000"]"#,
            options: .regularExpression)
        #expect(zero != good)
        #expect(throws: SavedStateError.self) { try decode(zero) }
    }

    @Test func aVersionOneFileReadsAsNotConsentedToTheLocationButton() throws {
        var engine = E.engine([E.client()])
        engine.allowShare()
        let v2 = engine.savedState.json.serialized
        #expect(v2.contains("\"shareConsent\":true"))
        let v1 = v2.replacingOccurrences(of: "\"version\":2", with: "\"version\":1")
            .replacingOccurrences(of: ",\"shareConsent\":true", with: "")
        let read = try SavedState(json: JSONValue.parse(Array(v1.utf8)))
        #expect(read.client("app")?.shareConsent == false)
        #expect(read.client("app")?.reduced == engine.savedState.client("app")?.reduced)
        // Version 2 must say it.
        let missing = v2.replacingOccurrences(of: ",\"shareConsent\":true", with: "")
        #expect(throws: SavedStateError.self) { try SavedState(json: JSONValue.parse(Array(missing.utf8))) }
    }

    /// A saved client the configuration does not name (a GeoClue app whose row of the apps list
    /// could not be read) is kept and written back, and a client of that name configured later
    /// starts from it: its `never` stays `never` (#47).
    @Test func savedStateForAClientNotConfiguredIsKeptAndRestoredWhenItIsConfigured() {
        var engine = E.engine([E.client("old", authorization: .always)])
        _ = engine.run(.authorize(client: "old", status: .never))
        var restarted = E.engine([E.client("new", authorization: .whileUsing)], saved: engine.savedState)
        #expect(restarted.authorizations.map(\.client) == ["new"])
        #expect(restarted.auth("new").status == .whileUsing)
        #expect(restarted.savedState.client("old")?.status == .never, "written back as it was")
        let settings = EngineSettings(
            clients: [E.client("new"), E.client("old", authorization: .ask)], services: true, restricted: [], policySource: "test")
        _ = restarted.handle(settings, now: E.t0 + 1)
        #expect(restarted.auth("old").status == .never)
        #expect(restarted.savedState.clients.map(\.name) == ["new", "old"], "once, in config order")
    }

    /// `state.json` read client by client: a bad row is skipped, naming where; the others are kept.
    @Test func aBadSavedClientIsSkippedNamingWhereAndTheOthersKept() throws {
        var engine = E.engine([E.client("a"), E.client("b"), E.client("c")])
        _ = engine.run(.authorize(client: "a", status: .never))
        _ = engine.run(.authorize(client: "c", status: .never))
        let text = engine.savedState.json.serialized.replacingOccurrences(of: "\"name\":\"b\",\"status\":\"ask\"", with: "\"name\":\"b\",\"status\":\"sometimes\"")
        var skipped: [SavedStateError] = []
        let read = try SavedState(json: JSONValue.parse(text), skipped: &skipped)
        #expect(read.clients.map(\.name) == ["a", "c"] && read.clients.allSatisfy { $0.status == .never })
        #expect(skipped.count == 1 && skipped[0].description.hasPrefix("at clients[1].status: \"sometimes\" is not one of"), "\(skipped)")
        #expect(throws: SavedStateError.self, "read whole, it is refused as before") { try SavedState(json: JSONValue.parse(text)) }
    }

    @Test func configInitialValuesApplyOnlyTheFirstTime() {
        var engine = E.engine([E.client(authorization: .always)])
        _ = engine.run(.authorize(client: "app", status: .never))
        let restarted = E.engine([E.client(precise: false, authorization: .always)], saved: engine.savedState)
        #expect(restarted.auth().status == .never)
        #expect(restarted.auth().accuracy == .full)
    }
}
