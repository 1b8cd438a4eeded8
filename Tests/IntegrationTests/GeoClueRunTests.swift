#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import Testing
import TestSupport

/// The GeoClue face (#38) against the real client: GeoClue's own `where-am-i`
/// (package geoclue-2-demo) on a private `dbus-daemon` (`dbus-monitor` and `dbus-send` for the rest), locationd owning
/// `org.freedesktop.GeoClue2` there, fixes from a live NMEA feed
/// (Tests/Scripts/nmea-feed.py into a FIFO, one epoch a second).
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(
        if: ExternalTool.isAvailable("dbus-daemon", "dbus-monitor", "dbus-send", "python3", GeoClueBed.whereAmI),
        "needs dbus-daemon, dbus-monitor and dbus-send (dbus-bin), python3 and where-am-i (geoclue-2-demo)"))
struct GeoClueRunTests {
    /// where-am-i's client for a new app run by root.
    static let rootApp = "gc-geoclue-where-am-i-0"

    @Test func anAppWaitsForTheAnswerThenGetsTheReceiversPositionsCountedAndLeavingEndsItsSession() async throws {
        let bed = try await GeoClueBed("answer")
        defer { bed.stop() }
        let app = try bed.whereAmI([], label: "where-am-i")
        defer { app.kill() }
        // No GUI agent: the prompt is the operator's, at once.
        try #require(await waitUntil(timeout: 30) { bed.daemon.stderr.contains("\(Self.rootApp) asks (while-using)") }, "\(bed.daemon.stderr)")
        let prompts = try await bed.plane.ctl(["prompts"])
        #expect(prompts.stdout.contains("locationctl answer \(Self.rootApp)"), "\(prompts.stdout)")
        // Fixes keep coming (two more handed on by the source); none reaches an app nobody allowed.
        #expect(await bed.plane.fixesCame(2, after: try await bed.plane.sourceFixes()), "\(bed.daemon.stderr)")
        #expect(!app.stdout.contains("New location"), "\(app.stdout)")
        _ = try await bed.plane.ctl(["answer", Self.rootApp, "allow-while-using"])
        try #require(await waitUntil(timeout: 30) { GeoClueBed.locations(app.stdout).count >= 2 }, "\(app.stdout)\n\(bed.daemon.stderr)")
        let shown = GeoClueBed.locations(app.stdout)
        for location in shown {
            // The receiver's own positions: 48°07.1NN' N (a thousandth of a minute an epoch), 11°31.324' E.
            #expect(GeoClueBed.wasSent(location.latitude), "\(location.text)")
            #expect(location.longitude == "11.522067", "\(location)")
            #expect(location.text.contains("Altitude:    545.400000 meters"), "\(location.text)")
        }
        // status names the app, its uid and the peer holding it now.
        let status = try await bed.plane.reply(["status"])
        let entry = status.reply?["geoclue"]?["clients"]?[Self.rootApp]
        #expect(status.reply?["geoclue"]?["connected"] == .bool(true), "\(String(describing: status.reply))")
        #expect(entry?["desktopId"] == .string("geoclue-where-am-i") && entry?["uid"] == .number(0), "\(String(describing: entry))")
        #expect(entry?["held"] == .bool(true) && entry?["peers"]?.arrayValue?.first?["pid"] == .number(Double(app.pid)), "\(String(describing: entry))")
        let text = try await bed.plane.ctl(["status"])
        #expect(text.stdout.contains("GeoClue: serving org.freedesktop.GeoClue2 on \(bed.bus.address)"), "\(text.stdout)")
        #expect(text.stdout.contains("GeoClue app geoclue-where-am-i (uid 0): started by :"), "\(text.stdout)")
        // The report counts what went over the bus, under its sink and peer.
        let report = try await bed.plane.reply(["report"])
        let client = report.reply?["clients"]?.arrayValue?.first { $0["client"] == .string(Self.rootApp) }
        let counted = client?["sinks"]?["geoclue"]?.intValue ?? 0
        #expect(counted >= shown.count, "\(String(describing: report.reply))")
        // The app leaves the bus: its session ends and updates stop at once.
        app.signal(SIGTERM)
        #expect(await app.wait(timeout: 30))
        let ended = await bed.eventually { try await bed.plane.status(of: Self.rootApp).inUse == false }
        let after = try await bed.plane.status(of: Self.rootApp)
        #expect(ended && !after.updating, "\(after)")
        let released = try await bed.plane.reply(["status"])
        #expect(released.reply?["geoclue"]?["clients"]?[Self.rootApp]?["held"] == .bool(false), "\(String(describing: released.reply))")
    }

    @Test func aCityLevelAppGetsTheReducedPositionAndNoAltitude() async throws {
        let bed = try await GeoClueBed("city")
        defer { bed.stop() }
        // The person allows precise location: the app still asked for a city only.
        let app = try await bed.allowedWhereAmI(["-a", "4"], label: "where-am-i-city")
        defer { app.kill() }
        let location = try #require(GeoClueBed.locations(app.stdout).first)
        #expect(!GeoClueBed.wasSent(location.latitude), "\(location.text)")
        #expect(location.text.contains("Accuracy:    2000.000000 meters"), "\(location.text)")
        #expect(location.text.contains("reduced accuracy"), "\(location.text)")
        #expect(!location.text.contains("Altitude:") && !location.text.contains("Speed:"), "\(location.text)")
        let status = try await bed.plane.status(of: Self.rootApp)
        #expect(status.authorization.accuracy.isFull, "the person's choice is kept: \(status)")
    }

    @Test func aGrantTakenAwaySetsActiveFalseAndWhereAmIQuits() async throws {
        let bed = try await GeoClueBed("revoke")
        defer { bed.stop() }
        let app = try await bed.allowedWhereAmI(label: "where-am-i-revoke")
        defer { app.kill() }
        _ = try await bed.plane.ctl(["authorize", Self.rootApp, "never"])
        #expect(await app.wait(timeout: 30), "where-am-i quits by itself: \(app.stdout)")
        #expect(app.stdout.contains("Geolocation disabled"), "\(app.stdout)")
        // A new Start is refused, with what the person can do.
        let again = try await ChildProcess.run(
            [GeoClueBed.whereAmI, "-t", "5"], environment: .only(["DBUS_SYSTEM_BUS_ADDRESS": bed.bus.address]), timeout: 60)
        #expect((again.output + again.stderr).contains("locationctl authorize \(Self.rootApp) while-using"), "\(again.output)\(again.stderr)")
    }

    @Test func locationServicesOffSetsActiveFalse() async throws {
        let bed = try await GeoClueBed("services")
        defer { bed.stop() }
        let app = try await bed.allowedWhereAmI(label: "where-am-i-services")
        defer { app.kill() }
        _ = try await bed.plane.ctl(["services", "off"])
        #expect(await app.wait(timeout: 30), "where-am-i quits by itself: \(app.stdout)")
        #expect(app.stdout.contains("Geolocation disabled"), "\(app.stdout)")
    }

    /// The app's own client keeps its name and its grant across a restart; TimeThreshold spaces the updates.
    @Test func anAppOfItsOwnKeepsItsGrantAcrossARestartAndTimeThresholdSpacesItsUpdates() async throws {
        var bed = try await GeoClueBed("restart")
        defer { bed.stop() }
        let first = try await bed.allowedWhereAmI(label: "where-am-i-first")
        first.kill()
        try await bed.restart()
        // Three seconds at least between two updates, by the fixes' own times.
        let again = try bed.whereAmI(["-i", "3"], label: "where-am-i-again")
        defer { again.kill() }
        try #require(await waitUntil(timeout: 60) { GeoClueBed.locations(again.stdout).count >= 3 }, "\(again.stdout)\n\(bed.daemon.stderr)")
        #expect(!bed.daemon.stderr.contains("asks (while-using)"), "no second prompt: \(bed.daemon.stderr)")
        let status = try await bed.plane.status(of: Self.rootApp)
        #expect(status.authorization.status == .whileUsing, "\(status)")
        let times = GeoClueBed.locations(again.stdout).compactMap(\.seconds)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= 3, "\(times)")
        }
    }

    /// `geoclue_id` with `app_users`: root's where-am-i is the configured client, allowed without a
    /// prompt; nobody's, with the same desktop id, is an app of its own that asks.
    @Test(.enabled(if: getuid() == 0, "needs root to run where-am-i as another user (setpriv)"))
    func aConfiguredClientTakesItsUsersAppOnly() async throws {
        let survey = """
            [client.survey]
            geoclue_id = geoclue-where-am-i
            app_users = 0
            authorization = while-using
            usage = Field survey
            """
        let bed = try await GeoClueBed("configured", clients: survey)
        defer { bed.stop() }
        let rootApp = try bed.whereAmI([], label: "where-am-i-root")
        defer { rootApp.kill() }
        try #require(await waitUntil(timeout: 30) { !GeoClueBed.locations(rootApp.stdout).isEmpty }, "\(rootApp.stdout)\n\(bed.daemon.stderr)")
        #expect(!bed.daemon.stderr.contains("asks (while-using)"), "\(bed.daemon.stderr)")
        #expect(try await bed.plane.status(of: "survey").inUse)
        let otherApp = try bed.whereAmI([], as: GeoClueBed.nobody, label: "where-am-i-nobody")
        defer { otherApp.kill() }
        try #require(
            await waitUntil(timeout: 30) { bed.daemon.stderr.contains("gc-geoclue-where-am-i-65534 asks (while-using)") }, "\(bed.daemon.stderr)")
        let status = try await bed.plane.reply(["status"])
        let clients = status.reply?["geoclue"]?["clients"]
        #expect(clients?["survey"]?["held"] == .bool(true) && clients?["survey"]?["uid"] == nil, "\(String(describing: clients))")
        #expect(clients?["gc-geoclue-where-am-i-65534"]?["uid"] == .number(65534), "\(String(describing: clients))")
    }

    /// Two users' processes with one DesktopId are two clients; neither sees the other's client,
    /// and no signal of locationd's carrying a position or a DesktopId is broadcast.
    @Test(.enabled(if: getuid() == 0, "needs root to run where-am-i as another user (setpriv)"))
    func anotherUserWithTheSameDesktopIdIsAnotherClientAndTheBusCarriesNothingOfEitherToOthers() async throws {
        let bed = try await GeoClueBed("two-uids")
        defer { bed.stop() }
        let monitor = try ChildProcess(
            ["dbus-monitor", "--address", bed.bus.address], environment: .only([:]), stdoutPath: bed.sandbox.file("monitor.out"))
        defer { monitor.kill() }
        try #require(await waitUntil(timeout: 30) { monitor.stdout.contains("NameAcquired") }, "\(monitor.stdout)")
        let rootApp = try await bed.allowedWhereAmI(label: "where-am-i-root")
        defer { rootApp.kill() }

        let nobody = GeoClueBed.nobody
        let otherApp = try bed.whereAmI([], as: nobody, label: "where-am-i-nobody")
        defer { otherApp.kill() }
        let otherClient = "gc-geoclue-where-am-i-65534"
        try #require(await waitUntil(timeout: 30) { bed.daemon.stderr.contains("\(otherClient) asks (while-using)") }, "\(bed.daemon.stderr)")
        // Root's grant is not nobody's: root's app keeps getting positions, nobody's gets none.
        let before = GeoClueBed.locations(rootApp.stdout).count
        try #require(await waitUntil(timeout: 30) { GeoClueBed.locations(rootApp.stdout).count >= before + 2 }, "\(rootApp.stdout)")
        #expect(!otherApp.stdout.contains("New location"), "\(otherApp.stdout)")
        // Nobody cannot read root's client.
        let path = try #require(
            rootApp.stdout.split(separator: "\n").first { $0.hasPrefix("Client object: ") }.map { String($0.dropFirst("Client object: ".count)) })
        // (dbus-send --address does not say Hello to the bus; through the system bus's variable it does.)
        let peek = try await ChildProcess.run(
            nobody + [
                "dbus-send", "--system", "--print-reply", "--dest=org.freedesktop.GeoClue2", path,
                "org.freedesktop.DBus.Properties.Get", "string:org.freedesktop.GeoClue2.Client", "string:DesktopId",
            ], environment: .only(["DBUS_SYSTEM_BUS_ADDRESS": bed.bus.address]), timeout: 60)
        let said = peek.output + peek.stderr
        #expect(peek.status != 0 && said.contains("AccessDenied") && said.contains("belongs to another connection"), "\(said)")
        #expect(!said.contains("geoclue-where-am-i"), "\(said)")
        // Nor delete it.
        let delete = try await ChildProcess.run(
            nobody + [
                "dbus-send", "--system", "--print-reply", "--dest=org.freedesktop.GeoClue2", "/org/freedesktop/GeoClue2/Manager",
                "org.freedesktop.GeoClue2.Manager.DeleteClient", "objpath:\(path)",
            ], environment: .only(["DBUS_SYSTEM_BUS_ADDRESS": bed.bus.address]), timeout: 60)
        #expect(delete.status != 0 && (delete.output + delete.stderr).contains("AccessDenied"), "\(delete.output)\(delete.stderr)")
        let still = GeoClueBed.locations(rootApp.stdout).count
        try #require(await waitUntil(timeout: 30) { GeoClueBed.locations(rootApp.stdout).count > still }, "root's client still updates")

        // Every signal of a client or location went to its owner alone.
        let signals = GeoClueBed.clientSignals(monitor.stdout)
        #expect(signals.contains { $0.contains("member=LocationUpdated") }, "the monitor saw the updates: \(monitor.stdout)")
        for signal in signals {
            #expect(!signal.contains("destination=(null destination)"), "broadcast: \(signal)")
        }
    }

    // MARK: Who a bus peer is

    /// A connection that outlived the process that opened it: the pid the bus recorded names no
    /// process of it, so nothing the bus says can pin it. Start is refused with AccessDenied saying
    /// why, and nothing of it reaches the engine.
    @Test(.enabled(if: ExternalTool.isAvailable(when: access(GeoClueBed.pythonGI, R_OK) == 0), "needs python3's Gio bindings (python3-gi)"))
    func aBusPeerWhoseProcessCannotBeVouchedForIsRefused() async throws {
        let bed = try await GeoClueBed("orphan")
        defer { bed.stop() }
        let output = bed.sandbox.file("orphan.out")
        let script = try ChildProcess(
            ["/usr/bin/python3", PackagePaths.path("Tests/Scripts/geoclue-orphan.py"), bed.bus.address, "org.example.Orphan"],
            environment: .only([:]), stdoutPath: output)
        defer { script.kill() }
        let answered = await waitUntil(timeout: 60) {
            GeoClueBed.said(FileIO.text(output) ?? "").contains { $0["error"] != nil || $0["started"] != nil }
        }
        let said = GeoClueBed.said(FileIO.text(output) ?? "")
        try #require(answered, "\(said)\n\(bed.daemon.stderr)")
        let error = try #require(said.first { $0["error"] != nil }, "Start was not refused: \(said)")
        #expect(error["error"] == .string("org.freedesktop.DBus.Error.AccessDenied"), "\(error)")
        let message = error["message"]?.stringValue ?? ""
        #expect(message.contains("locationd cannot vouch for who this connection is") && message.contains("has exited"), "\(message)")
        #expect(bed.daemon.stderr.contains("refused Start of /org/freedesktop/GeoClue2/Client/"), "\(bed.daemon.stderr)")
        // No client of its own, no prompt.
        let status = try await bed.plane.reply(["status"])
        #expect(status.reply?["geoclue"]?["clients"]?["gc-org_example_Orphan-\(getuid())"] == nil, "\(String(describing: status.reply))")
        #expect(!bed.daemon.stderr.contains("asks (while-using)"), "\(bed.daemon.stderr)")
    }

    // MARK: A name that cannot be owned

    /// A second locationd on a bus where the first owns org.freedesktop.GeoClue2: its start stops
    /// with a message naming the name and its owner (the first daemon, by pid), exit status 1, and
    /// no crash (issue #47: the failed init freed the Manager's properties twice).
    @Test func aSecondDaemonFindsTheNameTakenAndStopsSayingWhoOwnsIt() async throws {
        let bed = try await GeoClueBed("taken")
        defer { bed.stop() }
        let second = try DaemonSandbox("geoclue-taken-second")
        try second.writeNMEAConfig(device: second.file("gps"), clients: "[geoclue]\nbus = \(bed.bus.address)\n")
        let daemon = try second.startDaemon()
        defer { daemon.kill() }
        let status = try await daemon.finish(within: 60)
        let stderr = daemon.stderr
        #expect(status == 1 && daemon.terminatingSignal == nil, "status \(status): \(stderr)")
        #expect(!stderr.contains("double free") && !stderr.contains("Fatal error"), "\(stderr)")
        #expect(stderr.contains("not started: org.freedesktop.GeoClue2 is taken on \(bed.bus.address): the connection :1."), "\(stderr)")
        #expect(stderr.contains("(locationd, pid \(bed.daemon.pid), uid \(getuid())) owns it"), "\(stderr)")
        #expect(stderr.contains("systemctl mask --now geoclue"), "\(stderr)")
        // The first one serves on.
        let served = try await bed.plane.reply(["status"])
        #expect(served.reply?["geoclue"]?["connected"] == .bool(true), "\(String(describing: served.reply))")
    }

    /// A bus whose policy lets only root own org.freedesktop.GeoClue2, and locationd run as
    /// nobody: its start stops with the bus's AccessDenied and the policy file to check, exit
    /// status 1, no crash.
    @Test(.enabled(if: getuid() == 0, "needs root to run locationd as another user (setpriv)"))
    func aDaemonTheBusPolicyDoesNotLetOwnTheNameStopsNamingThePolicy() async throws {
        // The open policy, less the name for anyone but root.
        let own = #"<allow own="*"/>"#
        let policy =
            DBusDaemon.openPolicy.replacing(own, with: own + #"<deny own="org.freedesktop.GeoClue2"/>"#)
            + #"<policy user="root"><allow own="org.freedesktop.GeoClue2"/></policy>"#
        try #require(policy.contains("deny own"), "the open policy no longer holds \(own)")
        let bus = try await DBusDaemon("policy", policy: policy)
        defer { bus.stop() }
        let sandbox = try DaemonSandbox("geoclue-policy")
        try sandbox.writeNMEAConfig(device: sandbox.file("gps"), clients: "[geoclue]\nbus = \(bus.address)\n")
        // Everything of the sandbox is nobody's, so that the daemon gets as far as the bus.
        let chown = try await ChildProcess.run(["/bin/chown", "-R", "65534:65534", sandbox.path], environment: .only([:]), timeout: 30)
        try #require(chown.status == 0, "\(chown.stderr)")
        let daemon = try sandbox.startDaemon(prefix: GeoClueBed.nobody)
        defer { daemon.kill() }
        let status = try await daemon.finish(within: 60)
        let stderr = daemon.stderr
        #expect(status == 1 && daemon.terminatingSignal == nil, "status \(status): \(stderr)")
        #expect(!stderr.contains("double free") && !stderr.contains("Fatal error"), "\(stderr)")
        #expect(
            stderr.contains("not started: the policy of \(bus.address) does not let uid 65534 own org.freedesktop.GeoClue2 "
                + "(org.freedesktop.DBus.Error.AccessDenied: "), "\(stderr)")
        #expect(stderr.contains("check the <policy> of that bus's configuration"), "\(stderr)")
        // Root may: the same configuration serves.
        let root = try DaemonSandbox("geoclue-policy-root")
        let fifo = root.file("gps.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        try root.writeNMEAConfig(device: fifo, clients: "[geoclue]\nbus = \(bus.address)\n")
        let allowed = try root.startDaemon()
        defer { allowed.kill() }
        #expect(await waitUntil(timeout: 60) { allowed.stderr.contains("serving org.freedesktop.GeoClue2 on \(bus.address)") }, "\(allowed.stderr)")
    }
}

/// One test's world: a private bus, the NMEA feed, locationd with `[geoclue]` on that bus.
struct GeoClueBed {
    /// GeoClue's demo client.
    static let whereAmI = "/usr/libexec/geoclue-2.0/demos/where-am-i"
    /// Debian's Gio bindings for Python (python3-gi), which the tests' own client needs.
    static let pythonGI = "/usr/lib/python3/dist-packages/gi/__init__.py"
    /// Every latitude the feed sends, as where-am-i prints it (six decimals).
    static let sentLatitudes: Set<String> = Set((0..<900).map { format6(48 + (7.1 + Double($0) / 1000) / 60) })

    /// Whether where-am-i's `latitude` is one the feed sent.
    static func wasSent(_ latitude: String) -> Bool { sentLatitudes.contains(latitude) }

    /// Whether `latitude` (degrees) is one the feed sent, to where-am-i's six decimals.
    static func wasSent(latitude: Double) -> Bool { wasSent(format6(latitude)) }

    let sandbox: DaemonSandbox
    let bus: DBusDaemon
    private(set) var daemon: ChildProcess
    private(set) var feeder: ChildProcess
    /// The feed's arguments after its FIFO.
    private let feed: [String]
    let plane: ControlPlane

    /// `setpriv` running a program as nobody.
    static let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// A bed whose configuration has `clients` (sections) too; with `walk`, the feed walks
    /// (Tests/Scripts/nmea-feed.py) and prints where, for `walked`.
    init(_ label: String, clients: String = "", walk: Bool = false) async throws {
        sandbox = try DaemonSandbox("geoclue-\(label)")
        bus = try await DBusDaemon(label)
        let fifo = sandbox.file("gps.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        try sandbox.writeNMEAConfig(device: fifo, clients: "[geoclue]\nbus = \(bus.address)\n\n\(clients)\n")
        feed = walk ? ["walk"] : []
        (daemon, feeder) = try Self.start(sandbox, feed: feed)
        plane = ControlPlane(sandbox: sandbox)
        try await ready()
    }

    /// locationd, and the feed into its FIFO (which ends with the reader).
    private static func start(_ sandbox: DaemonSandbox, feed: [String]) throws -> (ChildProcess, ChildProcess) {
        let daemon = try sandbox.startDaemon()
        let feeder = try ChildProcess(
            ["python3", PackagePaths.path("Tests/Scripts/nmea-feed.py"), sandbox.file("gps.fifo")] + feed, environment: .only([:]),
            stdoutPath: sandbox.file("feed.out"))
        return (daemon, feeder)
    }

    private func ready() async throws {
        let daemon = daemon
        let up = await waitUntil(timeout: 60) { daemon.stderr.contains("ready:") && daemon.stderr.contains("source: fix") }
        try #require(up, "\(daemon.stderr)\n\(bus.stderr)")
    }

    /// Stops locationd (SIGTERM, its state saved) and starts it again with a new feed; `between`
    /// runs while it is stopped (to change its files).
    mutating func restart(between: () throws -> Void = {}) async throws {
        daemon.signal(SIGTERM)
        try #require(await daemon.wait(timeout: 60), "\(daemon.stderr)")
        feeder.kill()
        try between()
        (daemon, feeder) = try Self.start(sandbox, feed: feed)
        try await ready()
    }

    /// `where-am-i ARGS` on the test bus (as another user through `prefix`), for at most 60 s.
    func whereAmI(_ arguments: [String], as prefix: [String] = [], label: String) throws -> ChildProcess {
        try ChildProcess(
            prefix + [Self.whereAmI, "-t", "60"] + arguments, environment: .only(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]),
            stdoutPath: sandbox.file("\(label).out"))
    }

    /// The tests' own client (Tests/Scripts/geoclue-client.py) on the test bus: DesktopId `desktopId`,
    /// `options` as the script takes them.
    func client(_ desktopId: String, _ options: [String] = [], label: String) throws -> ChildProcess {
        try ChildProcess(
            ["/usr/bin/python3", PackagePaths.path("Tests/Scripts/geoclue-client.py"), bus.address, desktopId] + options,
            environment: .only([:]), stdoutPath: sandbox.file("\(label).out"))
    }

    /// Waits for the prompt `client`'s Start opened and answers it `allow-while-using`.
    func allow(_ client: String) async throws {
        let daemon = daemon
        try #require(await waitUntil(timeout: 30) { daemon.stderr.contains("\(client) asks (while-using)") }, "\(daemon.stderr)")
        _ = try await plane.ctl(["answer", client, "allow-while-using"])
    }

    /// `where-am-i ARGS` as root, once its prompt was answered `allow-while-using` and it printed a position.
    func allowedWhereAmI(_ arguments: [String] = [], label: String) async throws -> ChildProcess {
        let app = try whereAmI(arguments, label: label)
        do {
            try await allow(GeoClueRunTests.rootApp)
            try #require(await waitUntil(timeout: 30) { !Self.locations(app.stdout).isEmpty }, "\(app.stdout)\n\(daemon.stderr)")
        } catch {
            app.kill()
            throw error
        }
        return app
    }

    /// Polls `condition` for up to 30 s.
    func eventually(_ condition: () async throws -> Bool) async -> Bool {
        await waitUntilAsync(timeout: 30, every: 0.1) { (try? await condition()) == true }
    }

    /// Stops what the test started, by pid.
    func stop() {
        feeder.kill()
        daemon.kill()
        bus.stop()
    }

    /// One "New location:" block of where-am-i's output.
    struct Location {
        var latitude: String
        var longitude: String
        var text: String

        /// The Timestamp's seconds since 1970.
        var seconds: Int? {
            guard let open = text.lastIndex(of: "(") else { return nil }
            return Int(text[text.index(after: open)...].prefix { $0.isNumber })
        }
    }

    /// The complete blocks (up to their Timestamp line).
    static func locations(_ output: String) -> [Location] {
        output.split(separator: "New location:").dropFirst().compactMap { block in
            guard block.contains("Timestamp:") else { return nil }
            func value(_ label: String) -> String? {
                // The number alone: where-am-i pads it, and prints ° as ? in the C locale.
                block.split(separator: "\n").first { $0.hasPrefix(label) }.map {
                    String($0.dropFirst(label.count).filter { $0.isNumber || $0 == "." || $0 == "-" })
                }
            }
            guard let latitude = value("Latitude:"), let longitude = value("Longitude:") else { return nil }
            return Location(latitude: latitude, longitude: longitude, text: String(block))
        }
    }

    /// The JSON lines the tests' client wrote.
    static func said(_ output: String) -> [JSONValue] {
        output.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
    }

    /// One `LocationUpdated` the tests' client saw, with the new Location's position.
    struct Update {
        var client: String
        var latitude: Double
        var longitude: Double
    }

    /// The `LocationUpdated`s the tests' client saw, in order.
    static func updates(_ output: String) -> [Update] {
        said(output).compactMap { line in
            guard let client = line["client"]?.stringValue, let latitude = line["latitude"]?.numberValue,
                let longitude = line["longitude"]?.numberValue
            else { return nil }
            return Update(client: client, latitude: latitude, longitude: longitude)
        }
    }

    /// Where the walking feed went, epoch by epoch, in degrees (its whole lines only).
    static func walked(_ output: String) -> [(latitude: Double, longitude: Double)] {
        output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let latitude = degrees(parts[0], 2), let longitude = degrees(parts[1], 3) else { return nil }
            return (latitude, longitude)
        }
    }

    /// NMEA's `DDMM.MMMM` (`digits` of degrees) in degrees.
    private static func degrees(_ text: Substring, _ digits: Int) -> Double? {
        guard let whole = Double(text.prefix(digits)), let minutes = Double(text.dropFirst(digits)) else { return nil }
        return whole + minutes / 60
    }

    /// dbus-monitor's signal messages on a GeoClue client's or location's path, each with its arguments.
    static func clientSignals(_ output: String) -> [String] {
        var messages: [String] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.hasPrefix("\t") {
                messages.append(String(line))
            } else if !messages.isEmpty {
                messages[messages.count - 1] += "\n" + line
            }
        }
        return messages.filter { $0.hasPrefix("signal ") && $0.contains("path=/org/freedesktop/GeoClue2/Client") }
    }
}

/// `value` with six decimals, as printf's `%f` writes it.
private func format6(_ value: Double) -> String {
    let scaled = (value * 1_000_000).rounded()
    let whole = Int(scaled / 1_000_000)
    let fraction = Int(scaled) - whole * 1_000_000
    let digits = String(fraction)
    return "\(whole)." + String(repeating: "0", count: 6 - digits.count) + digits
}
