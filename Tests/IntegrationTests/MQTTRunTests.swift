import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `locationd run` publishing a client's log to a real mosquitto.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: ExternalTool.isAvailable("mosquitto", "mosquitto_sub", "mosquitto_pub"), "needs mosquitto and mosquitto-clients"))
struct MQTTRunTests {
    static let topic = "owntracks/board/one"

    /// The configuration: `source` (an `[source]` body), a `fleet` client publishing to `broker`, and `extra` clients.
    func writeConfig(_ sandbox: DaemonSandbox, source: String, broker: Mosquitto, precise: Bool = true, extra: String = "") throws {
        let text = """
            [daemon]
            socket = \(sandbox.socketPath)
            socket_group =
            state_dir = \(sandbox.stateDirectory)
            log_dir = \(sandbox.logDirectory)

            [source]
            \(source)

            [client.fleet]
            log = fleet.jsonl
            distance_filter = 5
            desired_accuracy = kilometer
            authorization = always
            updating = on
            in_use = on
            precise = \(precise ? "on" : "off")
            reduced_interval = 0
            usage = Puts the board on the fleet map
            mqtt_broker = 127.0.0.1:\(broker.port)
            mqtt_topic = \(Self.topic)
            mqtt_tid = b1

            \(extra)
            """
        try FileIO.write(sandbox.configPath, text)
    }

    /// Each payload's identity (time and position), first arrivals only: at-least-once delivery, in order.
    func arrivals(_ subscriber: MQTTSubscriber) -> [String] {
        var seen: Set<String> = []
        return subscriber.payloads.compactMap { try? JSONValue.parse($0) }
            .filter { $0["_type"]?.stringValue == "location" }
            .map { "\($0["tst"]?.intValue ?? -1) \($0["lat"]?.numberValue ?? .nan) \($0["lon"]?.numberValue ?? .nan)" }
            .filter { seen.insert($0).inserted }
    }

    func keys(_ records: [LogRecord]) -> [String] {
        records.map { "\(Int($0.time.rounded(.down))) \($0.latitude) \($0.longitude)" }
    }

    /// #10: libmosquitto and its TLS libraries are opened when a client first
    /// publishes, not at start: a daemon without `mqtt_broker` never maps them.
    /// The same daemon binary with a publishing client is the control.
    @Test func libmosquittoAndTLSAreMappedOnlyWhenAClientPublishes() async throws {
        let tls = ["libmosquitto", "libssl", "libcrypto"]
        func loaded(_ names: Set<String>) -> [String] {
            names.filter { name in tls.contains { name.hasPrefix($0 + ".so") } }.sorted()
        }
        let walk = PackagePaths.fixture("walk.nmea")

        let plain = try DaemonSandbox("mqtt-none")
        try plain.writeNMEAConfig(device: walk)
        let quiet = try plain.startDaemon()
        #expect(await waitUntil(timeout: 60) { !plain.records().isEmpty }, "\(quiet.stderr)")
        let quietNames = mappedLibraries(quiet.pid)
        #expect(quietNames.contains("libc.so.6"), "the maps were read: \(quietNames.sorted())")
        #expect(loaded(quietNames).isEmpty, "\(quietNames.sorted())")
        // #37: nor libgps, which only a gpsd source opens (DaemonRunTests sees it mapped then), nor
        // libsystemd, which only the GeoClue face opens.
        #expect(!quietNames.contains { $0.hasPrefix("libgps.so") }, "\(quietNames.sorted())")
        #expect(!quietNames.contains { $0.hasPrefix("libsystemd.so") }, "\(quietNames.sorted())")
        quiet.signal(SIGTERM)
        #expect(await quiet.wait(timeout: 60))
        #expect(quiet.exitStatus == 0, "\(quiet.stderr)")

        let sandbox = try DaemonSandbox("mqtt-mapped")
        let broker = try await Mosquitto("mapped")
        try writeConfig(sandbox, source: "type = nmea\ndevice = \(walk)", broker: broker)
        let daemon = try sandbox.startDaemon()
        #expect(await waitUntil(timeout: 60) { !sandbox.records("fleet").isEmpty }, "\(daemon.stderr)")
        let plane = ControlPlane(sandbox: sandbox)
        let connected = await waitUntilAsync(timeout: 60) {
            (try? await plane.status().brokers.first?.state) == .connected
        }
        #expect(connected, "\(daemon.stderr)")
        let names = mappedLibraries(daemon.pid)
        #expect(loaded(names).contains { $0.hasPrefix("libmosquitto.so") }, "\(names.sorted())")
        #expect(daemon.stderr.contains("mqtt: loaded libmosquitto.so.1"), "\(daemon.stderr)")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
    }

    @Test func aDaemonKilledWithABacklogSendsTheRestAfterItsRestart() async throws {
        let sandbox = try DaemonSandbox("mqtt-kill")
        let broker = try await Mosquitto("kill")
        let subscriber = try await MQTTSubscriber(broker, topic: Self.topic)
        await broker.stop()

        // The broker is away while the whole walk is logged: everything waits in the log.
        let walk = PackagePaths.fixture("walk.nmea")
        try writeConfig(sandbox, source: "type = nmea\ndevice = \(walk)", broker: broker)
        let first = try sandbox.startDaemon()
        let expected = distanceFilterChain(try nmeaFixes(walk), filter: 5)
        #expect(await waitUntil(timeout: 60) { sandbox.records("fleet").count >= expected.count }, "\(first.stderr)")
        let plane = ControlPlane(sandbox: sandbox)
        let waiting = await waitUntilAsync(timeout: 60) {
            guard let broker = try? await plane.status().brokers.first else { return false }
            return broker.state == .unreachable && broker.backlog == expected.count
        }
        let brokers = (try? await plane.status().brokers) ?? []
        #expect(waiting, "\(brokers)")
        let text = try await plane.ctl(["status", "fleet"]).stdout
        #expect(text.contains("mqtt://127.0.0.1:\(broker.port) \(Self.topic): NOT connected (unreachable"), "\(text)")
        #expect(text.contains("backlog \(expected.count) records"), "\(text)")
        first.signal(SIGKILL)
        #expect(await first.wait(timeout: 30))

        // Back with the broker, and a source that has nothing new: the backlog goes out, in order.
        try await broker.start()
        let deadPort = try LoopbackTCP.freePort()
        try writeConfig(sandbox, source: "type = gpsd\nhost = 127.0.0.1\nport = \(deadPort)", broker: broker)
        let second = try sandbox.startDaemon()
        let logged = keys(sandbox.records("fleet"))
        #expect(logged.count == expected.count)
        #expect(await waitUntil(timeout: 90) { arrivals(subscriber).count >= logged.count }, "\(second.stderr)")
        #expect(arrivals(subscriber) == logged)
        let drained = await waitUntilAsync(timeout: 30) {
            guard let broker = try? await plane.status().brokers.first else { return false }
            return broker.state == .connected && broker.backlog == 0 && broker.published >= logged.count
        }
        #expect(drained)
        second.signal(SIGTERM)
        #expect(await second.wait(timeout: 60))
        #expect(second.exitStatus == 0, "\(second.stderr)")
    }

    @Test func aReducedClientPublishesOnlyItsReducedPositions() async throws {
        let sandbox = try DaemonSandbox("mqtt-reduced")
        let broker = try await Mosquitto("reduced")
        let subscriber = try await MQTTSubscriber(broker, topic: Self.topic)
        let walk = PackagePaths.fixture("walk.nmea")
        // A second client logs the full track on the same board; it publishes nothing.
        let full = """
            [client.field]
            log = field.jsonl
            authorization = always
            updating = on
            in_use = on
            usage = The full field log
            """
        try writeConfig(sandbox, source: "type = nmea\ndevice = \(walk)", broker: broker, precise: false, extra: full)
        let daemon = try sandbox.startDaemon()
        let plane = ControlPlane(sandbox: sandbox)
        #expect(await waitUntil(timeout: 60) { !sandbox.records("field").isEmpty && !sandbox.records("fleet").isEmpty })
        let published = await waitUntilAsync(timeout: 60) {
            let logged = sandbox.records("fleet").count
            guard let broker = try? await plane.status().brokers.first else { return false }
            return logged > 0 && broker.backlog == 0 && broker.published >= logged && arrivals(subscriber).count >= logged
        }
        #expect(published, "\(daemon.stderr)")

        // The walk goes on meanwhile: a record logged after the wait may not have arrived yet,
        // so what arrived is the log's records in order, from the first, every one of them reduced.
        let got = arrivals(subscriber)
        let reduced = sandbox.records("fleet")
        #expect(reduced.allSatisfy { $0.accuracy == .reduced })
        #expect(!got.isEmpty && keys(reduced).starts(with: got) && got.count + 1 >= reduced.count, "\(got) vs \(keys(reduced))")
        let fullPositions = Set(sandbox.records("field").map { "\($0.latitude) \($0.longitude)" })
        for payload in subscriber.payloads {
            let value = try JSONValue.parse(payload)
            guard value["_type"]?.stringValue == "location" else { continue }
            for absent in ["alt", "vac", "vel", "cog"] { #expect(value[absent] == nil, "\(absent) in \(payload)") }
            #expect((value["acc"]?.intValue ?? 0) >= 2000)
            let position = "\(value["lat"]?.numberValue ?? .nan) \(value["lon"]?.numberValue ?? .nan)"
            #expect(!fullPositions.contains(position), "a full-accuracy position was published: \(payload)")
        }

        // watch hears the broker go away.
        let watch = try ChildProcess(
            [PackagePaths.product("locationctl"), "--socket", sandbox.socketPath, "--json", "watch", "fleet"],
            environment: .only([:]), stdoutPath: sandbox.file("watch.out"))
        #expect(await waitUntil(timeout: 30) { watch.stdout.contains(#""event":"authorization""#) })
        await broker.stop()
        #expect(await waitUntil(timeout: 60) { watch.stdout.contains(#""event":"broker""#) && watch.stdout.contains(#""state":"unreachable""#) },
                "\(watch.stdout)")
        #expect(!watch.stdout.split(separator: "\n").contains { $0.contains(#""event":"broker""#) && $0.contains(#""lat""#) })
        watch.signal(SIGINT)
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
    }
}
