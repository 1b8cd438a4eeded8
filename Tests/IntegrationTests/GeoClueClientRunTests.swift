#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import Testing
import TestSupport

/// The GeoClue face (#38) against a client of the tests' own
/// (Tests/Scripts/geoclue-client.py, Gio through python3-gi) for what
/// where-am-i does not do: a DistanceThreshold, CreateClient and
/// DeleteClient, an agent; `busctl` and `dbus-send` as another connection. Same bed as
/// `GeoClueRunTests`: a private `dbus-daemon`, locationd on it, a live NMEA feed.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(
        if: ExternalTool.isAvailable("dbus-daemon", "busctl", "dbus-send", "/usr/bin/python3")
            && ExternalTool.isAvailable(when: access(GeoClueBed.pythonGI, R_OK) == 0),
        "needs dbus-daemon (dbus-daemon), busctl (systemd), dbus-send (dbus-bin), python3 and its Gio bindings (python3-gi)"))
struct GeoClueClientRunTests {
    /// The engine client of an app of its own with `desktopId`, run by this test's uid.
    static func ownClient(_ desktopId: String) -> String { "gc-\(desktopId)-\(getuid())" }

    /// A walk with steps of 0.2 to 11 m: each position signalled is the first fed one at least
    /// DistanceThreshold from the one signalled before it (geodesic, on the ellipsoid).
    @Test func aDistanceThresholdSignalsOnlyThePositionsThatMovedThatFar() async throws {
        let bed = try await GeoClueBed("distance", walk: true)
        defer { bed.stop() }
        let app = try bed.client("walker", ["distance=10"], label: "walker")
        defer { app.kill() }
        try await bed.allow(Self.ownClient("walker"))
        try #require(
            await waitUntil(timeout: 90) { GeoClueBed.updates(app.stdout).count >= 8 }, "\(app.stdout)\n\(bed.daemon.stderr)")
        let indices = try Self.fedIndices(GeoClueBed.updates(app.stdout), bed)
        try Self.expectFiltered(indices, threshold: 10, bed)
        // The threshold did hold fixes back (one step of the walk, 11 m, passes it alone).
        #expect(zip(indices, indices.dropFirst()).contains { $1 - $0 >= 2 }, "\(indices)")
    }

    /// Two clients of one app on one connection, DistanceThreshold 10 and 0: each gets what it asked
    /// for, the one every fix of the walk, the other only the fixes that moved 10 m.
    @Test func eachClientObjectHasItsOwnDistanceThreshold() async throws {
        let bed = try await GeoClueBed("distances", walk: true)
        defer { bed.stop() }
        let app = try bed.client("walkers", ["clients=create", "distance=10,0"], label: "walkers")
        defer { app.kill() }
        try await bed.allow(Self.ownClient("walkers"))
        let created = GeoClueBed.said(app.stdout).compactMap { $0["create"]?.stringValue }
        try #require(created.count == 2, "\(app.stdout)")
        let (far, every) = (created[0], created[1])
        try #require(
            await waitUntil(timeout: 90) { GeoClueBed.updates(app.stdout).count { $0.client == far } >= 8 },
            "\(app.stdout)\n\(bed.daemon.stderr)")
        let updates = GeoClueBed.updates(app.stdout)
        let everyIndex = try Self.fedIndices(updates.filter { $0.client == every }, bed)
        #expect(zip(everyIndex, everyIndex.dropFirst()).allSatisfy { $1 == $0 + 1 }, "every fix: \(everyIndex)")
        try Self.expectFiltered(Self.fedIndices(updates.filter { $0.client == far }, bed), threshold: 10, bed)
    }

    /// A configured client with a log and a `geoclue_id` (#47): a bus app asking for a city with a
    /// huge DistanceThreshold gets the client's reduced position, and its Start, its requests and its
    /// going change nothing of the log, which keeps its full-accuracy lines, every fix, updating.
    @Test func aBusAppsLevelThresholdAndStopLeaveTheSameClientsLogAsConfigured() async throws {
        let survey = """
            [client.survey]
            log = survey.jsonl
            distance_filter = none
            desired_accuracy = best
            authorization = always
            updating = on
            in_use = on
            usage = Surveys the site
            geoclue_id = org.example.Survey
            """
        let bed = try await GeoClueBed("narrow", clients: survey)
        defer { bed.stop() }
        let app = try bed.client("org.example.Survey", ["level=4", "distance=1000000"], label: "survey-city")
        defer { app.kill() }
        try #require(await waitUntil(timeout: 60) { !GeoClueBed.updates(app.stdout).isEmpty }, "\(app.stdout)\n\(bed.daemon.stderr)")
        let update = try #require(GeoClueBed.updates(app.stdout).first)
        #expect(!GeoClueBed.wasSent(latitude: update.latitude), "a city, not the receiver's position: \(update)")
        let said = try #require(GeoClueBed.said(app.stdout).first { $0["accuracy"] != nil })
        #expect(said["accuracy"] == .number(2000), "\(said)")
        // The app leaves: its Stop ends nothing the configuration keeps.
        app.signal(SIGTERM)
        #expect(await app.wait(timeout: 30))
        let left = bed.sandbox.records("survey").count
        try #require(await waitUntil(timeout: 30) { bed.sandbox.records("survey").count >= left + 3 }, "\(bed.daemon.stderr)")
        let records = bed.sandbox.records("survey")
        #expect(records.allSatisfy { $0.accuracy == .full && GeoClueBed.wasSent(latitude: $0.latitude) }, "\(records)")
        // Every fix in the log, whatever DistanceThreshold the app asked (the feed moves 2 m a fix).
        let times = records.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 <= 1.5 }, "\(times)")
        let status = try await bed.plane.status(of: "survey")
        #expect(status.inUse && status.updating && status.authorization.accuracy.isFull, "\(status)")
    }

    /// The first position after `Start` is signalled whatever DistanceThreshold and TimeThreshold
    /// say (#48: clients wait for it, as GClue.Simple does).
    @Test func theFirstPositionAfterStartIsSignalledWhateverTheThresholds() async throws {
        let bed = try await GeoClueBed("first")
        defer { bed.stop() }
        let app = try bed.client("patient", ["distance=4000000000", "time=4000000000"], label: "patient")
        defer { app.kill() }
        try await bed.allow(Self.ownClient("patient"))
        try #require(await waitUntil(timeout: 60) { !GeoClueBed.updates(app.stdout).isEmpty }, "\(app.stdout)\n\(bed.daemon.stderr)")
        let first = try #require(GeoClueBed.updates(app.stdout).first)
        #expect(GeoClueBed.wasSent(latitude: first.latitude), "\(first)")
    }

    /// A client whose accuracy is reduced got its position of the interval: a client object
    /// started within `reduced_interval` gets that same position at once, not nothing for 15
    /// minutes (#48); nothing new is disclosed.
    @Test func aClientObjectStartedWithinTheReducedIntervalGetsItsPositionAtOnce() async throws {
        let bed = try await GeoClueBed("at-once")
        defer { bed.stop() }
        let name = Self.ownClient("weather")
        let first = try bed.client("weather", ["level=4"], label: "weather-1")
        defer { first.kill() }
        try await bed.allow(name)
        try #require(await waitUntil(timeout: 60) { !GeoClueBed.updates(first.stdout).isEmpty }, "\(first.stdout)\n\(bed.daemon.stderr)")
        let city = try #require(GeoClueBed.updates(first.stdout).first)
        // The person now allows no more than the reduced position: the engine delivers nothing
        // more in this interval, so only the face's answer at Start can reach a new object.
        _ = try await bed.plane.ctl(["accuracy", name, "reduced"])
        let second = try bed.client("weather", label: "weather-2")
        defer { second.kill() }
        try #require(await waitUntil(timeout: 60) { !GeoClueBed.updates(second.stdout).isEmpty }, "\(second.stdout)\n\(bed.daemon.stderr)")
        let again = try #require(GeoClueBed.updates(second.stdout).first)
        #expect(again.latitude == city.latitude && again.longitude == city.longitude, "\(again) \(city)")
        let said = try #require(GeoClueBed.said(second.stdout).first { $0["accuracy"] != nil })
        #expect(said["accuracy"] == .number(2000), "\(said)")
    }

    /// Two client objects of one app, CITY and EXACT: each gets its own level, the CITY one the
    /// reduced position whatever its sibling asks (#48).
    @Test func eachClientObjectGetsItsOwnLevel() async throws {
        let bed = try await GeoClueBed("levels")
        defer { bed.stop() }
        let app = try bed.client("levels", ["clients=create", "level=4,8"], label: "levels")
        defer { app.kill() }
        try await bed.allow(Self.ownClient("levels"))
        let created = GeoClueBed.said(app.stdout).compactMap { $0["create"]?.stringValue }
        try #require(created.count == 2, "\(app.stdout)")
        let (city, exact) = (created[0], created[1])
        try #require(
            await waitUntil(timeout: 60) {
                let updates = GeoClueBed.updates(app.stdout)
                return updates.contains { $0.client == city } && updates.count { $0.client == exact } >= 3
            }, "\(app.stdout)\n\(bed.daemon.stderr)")
        let said = GeoClueBed.said(app.stdout).filter { $0["accuracy"] != nil }
        for line in said {
            let client = line["client"]?.stringValue
            let latitude = line["latitude"]?.numberValue ?? 0
            if client == city {
                #expect(line["accuracy"] == .number(2000) && !GeoClueBed.wasSent(latitude: latitude), "\(line)")
            } else {
                #expect(GeoClueBed.wasSent(latitude: latitude), "\(line)")
            }
        }
    }

    /// Where in the walk each of `updates` was fed (positions never repeat: the walk goes north).
    static func fedIndices(_ updates: [GeoClueBed.Update], _ bed: GeoClueBed) throws -> [Int] {
        let fed = GeoClueBed.walked(bed.feeder.stdout)
        return try updates.map { update in
            try #require(
                fed.firstIndex { abs($0.latitude - update.latitude) < 1e-9 && abs($0.longitude - update.longitude) < 1e-9 },
                "signalled but never fed: \(update)")
        }
    }

    /// Each of the fed fixes at `indices` after the first is the first fed one at least `threshold`
    /// metres from the one before it.
    static func expectFiltered(_ indices: [Int], threshold: Double, _ bed: GeoClueBed) throws {
        let fed = GeoClueBed.walked(bed.feeder.stdout)
        for (from, to) in zip(indices, indices.dropFirst()) {
            let distance = { (k: Int) in
                Geodesy.distance(
                    fromLatitude: fed[from].latitude, longitude: fed[from].longitude, toLatitude: fed[k].latitude,
                    longitude: fed[k].longitude)
            }
            let expected = try #require((from + 1..<fed.count).first { distance($0) >= threshold })
            #expect(to == expected, "after fix \(from): signalled fix \(to) (\(distance(to)) m), expected fix \(expected) (\(distance(expected)) m)")
        }
    }

    /// GetClient gives one connection the same client each time, CreateClient a new one each call;
    /// two created clients of one app hold one session; another connection cannot delete them, the
    /// owner can, and the session ends with the last. What the app sends is audited as the app's.
    @Test func createClientMakesANewClientEachCallAndOnlyItsOwnerDeletesIt() async throws {
        let bed = try await GeoClueBed("create")
        defer { bed.stop() }
        let app = try bed.client("creator", ["clients=create"], label: "creator")
        defer { app.kill() }
        let name = Self.ownClient("creator")
        try await bed.allow(name)
        let said = GeoClueBed.said(app.stdout)
        let got = said.compactMap { $0["get"]?.stringValue }
        let created = said.compactMap { $0["create"]?.stringValue }
        #expect(got.count == 2 && got[0] == got[1], "\(got)")
        #expect(created.count == 2 && created[0] != created[1] && !created.contains(got[0]), "\(created) \(got)")
        #expect(said.compactMap { $0["started"]?.stringValue } == created, "\(app.stdout)")
        // Both created clients are served.
        try #require(
            await waitUntil(timeout: 30) { Set(GeoClueBed.updates(app.stdout).map(\.client)) == Set(created) },
            "\(app.stdout)\n\(bed.daemon.stderr)")

        // Another connection may not delete them (busctl says "Access denied" for AccessDenied; dbus-send names the error).
        let environment = ChildEnvironment.only(["DBUS_SYSTEM_BUS_ADDRESS": bed.bus.address])
        let busctl = try await ChildProcess.run(
            [
                "busctl", "--system", "call", "org.freedesktop.GeoClue2", "/org/freedesktop/GeoClue2/Manager",
                "org.freedesktop.GeoClue2.Manager", "DeleteClient", "o", created[0],
            ], environment: environment, timeout: 60)
        #expect(busctl.status != 0 && busctl.stderr.contains("Access denied"), "\(busctl.output)\(busctl.stderr)")
        let send = try await ChildProcess.run(
            [
                "dbus-send", "--system", "--print-reply", "--dest=org.freedesktop.GeoClue2", "/org/freedesktop/GeoClue2/Manager",
                "org.freedesktop.GeoClue2.Manager.DeleteClient", "objpath:\(created[0])",
            ], environment: environment, timeout: 60)
        let refusal = send.output + send.stderr
        #expect(
            send.status != 0 && refusal.contains("org.freedesktop.DBus.Error.AccessDenied") && refusal.contains("belongs to another connection"),
            "\(refusal)")

        // The owner deletes the first: gone, and the second keeps the session and its updates.
        app.signal(SIGUSR1)
        try #require(await waitUntil(timeout: 30) { GeoClueBed.said(app.stdout).contains { $0["deleted"] != nil } }, "\(app.stdout)")
        let deleted = try #require(GeoClueBed.said(app.stdout).first { $0["deleted"] != nil })
        #expect(deleted["deleted"]?.stringValue == created[0], "\(deleted)")
        #expect(deleted["after"]?.stringValue == "org.freedesktop.DBus.Error.UnknownObject", "\(deleted)")
        let before = GeoClueBed.updates(app.stdout).count
        try #require(await waitUntil(timeout: 30) { GeoClueBed.updates(app.stdout).count >= before + 2 }, "\(app.stdout)")
        #expect(GeoClueBed.updates(app.stdout).dropFirst(before).allSatisfy { $0.client == created[1] }, "\(app.stdout)")
        #expect(try await bed.plane.status(of: name).inUse)
        app.signal(SIGUSR1)
        let ended = await bed.eventually { try await bed.plane.status(of: name).inUse == false }
        let after = try await bed.plane.status(of: name)
        #expect(ended && !after.updating, "\(after)")

        // The audit log names the app's uid and pid for what it sent, locationctl's for the answer.
        let log = try #require(FileIO.text(bed.sandbox.logDirectory + "/audit.jsonl"))
        let audit = try log.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        let mine = audit.filter { $0["client"]?.stringValue == name }
        for command in ["session", "start", "request", "stop"] {
            let records = mine.filter { $0["cmd"]?.stringValue == command }
            #expect(!records.isEmpty, "\(command): \(mine)")
            for record in records {
                #expect(record["pid"] == .number(Double(app.pid)) && record["uid"] == .number(Double(getuid())), "\(record)")
            }
        }
        #expect(mine.contains { $0["cmd"] == "answer" && $0["pid"] != .number(Double(app.pid)) }, "\(mine)")
        // The report counts what the bus clients got under `geoclue`, the app as the peer.
        let report = try await bed.plane.reply(["report", name])
        let peers = report.reply?["clients"]?.arrayValue?.first?["peers"]?.arrayValue ?? []
        #expect(
            peers.contains { $0["sink"] == "geoclue" && $0["uid"] == .number(Double(getuid())) && $0["name"] == "python3" },
            "\(String(describing: report.reply))")
    }

    /// AddAgent succeeds and changes nothing: the prompt is the operator's, and the agent, which would
    /// allow anything, is never asked.
    @Test func addAgentIsAcceptedAndIgnored() async throws {
        let bed = try await GeoClueBed("agent")
        defer { bed.stop() }
        let app = try bed.client("agentful", ["agent=yes"], label: "agentful")
        defer { app.kill() }
        let name = Self.ownClient("agentful")
        try #require(
            await waitUntil(timeout: 30) { bed.daemon.stderr.contains("\(name) asks (while-using)") }, "\(app.stdout)\n\(bed.daemon.stderr)")
        let said = GeoClueBed.said(app.stdout)
        #expect(said.contains { $0["agent"] == "added" } && !said.contains { $0["error"] != nil }, "\(app.stdout)")
        #expect(bed.daemon.stderr.contains("registered the agent geoclue-demo-agent; not used"), "\(bed.daemon.stderr)")
        let prompts = try await bed.plane.ctl(["prompts"])
        #expect(prompts.stdout.contains("locationctl answer \(name)"), "\(prompts.stdout)")
        #expect(GeoClueBed.updates(app.stdout).isEmpty, "no position before the answer: \(app.stdout)")
        _ = try await bed.plane.ctl(["answer", name, "allow-while-using"])
        try #require(await waitUntil(timeout: 30) { !GeoClueBed.updates(app.stdout).isEmpty }, "\(app.stdout)\n\(bed.daemon.stderr)")
        #expect(!GeoClueBed.said(app.stdout).contains { $0["agent"] == "asked" }, "\(app.stdout)")
    }
}
