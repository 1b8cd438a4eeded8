import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem
import Synchronization
import Testing
import TestSupport

@testable import LocationDaemon

#if canImport(Glibc)
import Glibc
#endif

/// A client's log, its state directory, and publishers of it, against a real mosquitto.
final class PublisherFixture: Sendable {
    let directory: ScratchDirectory
    let changes = Mutex<[BrokerStatus]>([])
    var logPath: String { directory.file("log/fleet.jsonl") }
    var stateDirectory: String { directory.file("state") }

    init(_ label: String) throws {
        directory = try ScratchDirectory("mqtt-pub-\(label)")
        _ = try FileSystem.makeDirectories(directory.file("log"), mode: 0o755)
        try FileIO.write(logPath, [])
    }

    /// Record `i` of a walk: every field the log can hold.
    static func record(_ i: Int) -> LogRecord {
        LogRecord(
            time: 1_773_480_600 + Double(i) + 0.25, latitude: 35.681199 + Double(i) * 1e-4, longitude: 139.7670668,
            altitude: 34.5 + Double(i), horizontalError: 2.2, verticalError: 4.6, speed: 1.25, course: 157.6,
            mode: .threeD, satellites: 9, accuracy: .full, client: "fleet")
    }

    func append(_ range: Range<Int>, to path: String? = nil) throws {
        try FileIO.append(path ?? logPath, range.flatMap { Self.record($0).line() })
    }

    func settings(_ broker: Mosquitto, qos: Int = 1, configure: (inout MQTTSettings) -> Void = { _ in }) -> MQTTSettings {
        var settings = MQTTSettings(
            host: "127.0.0.1", port: broker.port, topic: "owntracks/board/one", trackerID: "b1", qos: qos)
        configure(&settings)
        return settings
    }

    func publisher(_ settings: MQTTSettings) throws -> MQTTPublisher {
        let publisher = MQTTPublisher(
            client: "fleet", settings: settings, logPath: logPath, stateDirectory: stateDirectory,
            onChange: { [weak self] status in self?.changes.withLock { $0.append(status) } })
        try publisher.start()
        return publisher
    }

    func stop(_ publisher: MQTTPublisher) async {
        publisher.stop()
        #expect(await waitUntil(timeout: 10) { publisher.isFinished })
    }

    var logSize: UInt64 { UInt64((try? FileIO.read(logPath))?.count ?? 0) }

    var cursor: PublishCursor? {
        guard let bytes = try? FileIO.read(DaemonConfig.join(stateDirectory, PublishCursor.fileName(client: "fleet"))) else { return nil }
        return PublishCursor(bytes: bytes)
    }
}

/// The `tst` of each payload, and each payload decoded.
func payloadObjects(_ payloads: [String]) -> [JSONValue] {
    payloads.compactMap { try? JSONValue.parse($0) }.filter { $0["_type"]?.stringValue == "location" }
}

/// The payloads' `tst`s with repeats (a record sent again after a lost acknowledgement) taken out,
/// keeping each first arrival: at-least-once delivery, in order.
func firstArrivals(_ objects: [JSONValue]) -> [Int] {
    var seen: Set<Int> = []
    return objects.compactMap { $0["tst"]?.intValue }.filter { seen.insert($0).inserted }
}

@Suite(.timeLimit(.minutes(10)), .enabled(if: ExternalTool.isAvailable("mosquitto", "mosquitto_sub", "mosquitto_pub"), "needs mosquitto and mosquitto-clients"))
struct MQTTPublisherTests {
    @Test func everyRecordOfTheLogArrivesInOrderWithTheOwnTracksFields() async throws {
        let broker = try await Mosquitto("order")
        let subscriber = try await MQTTSubscriber(broker, topic: "owntracks/board/one")
        let fixture = try PublisherFixture("order")
        try fixture.append(0..<30)
        let publisher = try fixture.publisher(fixture.settings(broker))
        #expect(await waitUntil(timeout: 60) { payloadObjects(subscriber.payloads).count >= 30 }, "\(publisher.status)")
        // Records logged while it runs follow.
        try fixture.append(30..<40)
        #expect(await waitUntil(timeout: 60) { payloadObjects(subscriber.payloads).count >= 40 }, "\(publisher.status)")
        #expect(await waitUntil(timeout: 10) { publisher.status.backlog == 0 && fixture.cursor?.offset == fixture.logSize })

        let objects = payloadObjects(subscriber.payloads)
        #expect(objects.count == 40, "each record once while nothing failed")
        for (i, object) in objects.enumerated() {
            let record = PublisherFixture.record(i)
            #expect(object["_type"]?.stringValue == "location")
            #expect(object["tst"]?.intValue == Int(record.time.rounded(.down)))
            #expect(object["lat"]?.numberValue == (record.latitude * 1e7).rounded() / 1e7)
            #expect(object["lon"]?.numberValue == 139.7670668)
            #expect(object["acc"]?.intValue == 2)
            #expect(object["alt"]?.intValue == Int((34.5 + Double(i)).rounded()))
            #expect(object["vac"]?.intValue == 5)
            #expect(object["vel"]?.intValue == 5, "1.25 m/s is 4.5 km/h, rounded")
            #expect(object["cog"]?.intValue == 158)
            #expect(object["tid"]?.stringValue == "b1")
            #expect(object["t"]?.stringValue == "t")
            #expect((object["created_at"]?.intValue ?? 0) >= 1_773_480_600)
        }
        let status = publisher.status
        #expect(status.state == .connected)
        #expect(status.published == 40)
        #expect(status.lastPublish != nil)
        #expect(fixture.changes.withLock { $0.map(\.state) }.first == .connected)
        await fixture.stop(publisher)
        // Retained: a subscriber that comes later gets the last location at once.
        let late = try await ChildProcess.run(
            [ExternalTool.path("mosquitto_sub") ?? "mosquitto_sub", "-h", "127.0.0.1", "-p", String(broker.port),
             "-t", "owntracks/board/one", "-C", "1", "-W", "20"])
        #expect(payloadObjects([late.output]).first?["tst"]?.intValue == Int(PublisherFixture.record(39).time))
    }

    @Test func recordsLoggedWhileTheBrokerIsDownArriveAfterItReturns() async throws {
        let broker = try await Mosquitto("outage")
        let subscriber = try await MQTTSubscriber(broker, topic: "owntracks/board/one")
        let fixture = try PublisherFixture("outage")
        try fixture.append(0..<10)
        let publisher = try fixture.publisher(fixture.settings(broker))
        #expect(await waitUntil(timeout: 60) { payloadObjects(subscriber.payloads).count >= 10 })

        await broker.stop()
        #expect(await waitUntil(timeout: 60) { publisher.status.state == .unreachable }, "\(publisher.status)")
        try fixture.append(10..<25)
        #expect(await waitUntil(timeout: 10) { publisher.status.backlog == 15 }, "\(publisher.status)")
        #expect(publisher.status.detail.isEmpty == false)

        try await broker.start()
        #expect(await waitUntil(timeout: 90) { firstArrivals(payloadObjects(subscriber.payloads)).count >= 25 }, "\(publisher.status)")
        #expect(firstArrivals(payloadObjects(subscriber.payloads)) == (0..<25).map { Int(PublisherFixture.record($0).time) })
        #expect(await waitUntil(timeout: 10) { publisher.status.backlog == 0 && publisher.status.state == .connected })
        let states = fixture.changes.withLock { $0.map(\.state) }
        #expect(states.first == .connected && states.contains(.unreachable) && states.last == .connected, "\(states)")
        await fixture.stop(publisher)
    }

    @Test func aNewPublisherContinuesFromTheSavedCursor() async throws {
        let broker = try await Mosquitto("cursor")
        let subscriber = try await MQTTSubscriber(broker, topic: "owntracks/board/one")
        let fixture = try PublisherFixture("cursor")
        try fixture.append(0..<5)
        let first = try fixture.publisher(fixture.settings(broker))
        #expect(await waitUntil(timeout: 60) { payloadObjects(subscriber.payloads).count >= 5 })
        #expect(await waitUntil(timeout: 10) { fixture.cursor?.offset == fixture.logSize })
        await fixture.stop(first)

        try fixture.append(5..<12)
        let second = try fixture.publisher(fixture.settings(broker))
        #expect(await waitUntil(timeout: 60) { payloadObjects(subscriber.payloads).count >= 12 })
        #expect(await waitUntil(timeout: 10) { second.status.backlog == 0 })
        await fixture.stop(second)
        let tsts = payloadObjects(subscriber.payloads).compactMap { $0["tst"]?.intValue }
        #expect(tsts == (0..<12).map { Int(PublisherFixture.record($0).time) }, "nothing twice after a clean stop")
    }

    @Test func aRotatedLogIsFinishedBeforeTheNewOneAndADeletedOneIsCounted() async throws {
        let broker = try await Mosquitto("rotate")
        let subscriber = try await MQTTSubscriber(broker, topic: "owntracks/board/one")
        let fixture = try PublisherFixture("rotate")
        try fixture.append(0..<3)
        let first = try fixture.publisher(fixture.settings(broker))
        #expect(await waitUntil(timeout: 60) { payloadObjects(subscriber.payloads).count >= 3 })
        await fixture.stop(first)

        // Logged while stopped, then rotated (logrotate renames, the daemon starts a new file).
        try fixture.append(3..<5)
        #expect(rename(fixture.logPath, fixture.logPath + ".1") == 0)
        try fixture.append(5..<8)
        let second = try fixture.publisher(fixture.settings(broker))
        #expect(await waitUntil(timeout: 60) { payloadObjects(subscriber.payloads).count >= 8 }, "\(second.status)")
        // Rotated again while running: the renamed file gets one more line before the writer reopens.
        try fixture.append(8..<9)
        #expect(rename(fixture.logPath, fixture.logPath + ".1") == 0)
        try fixture.append(9..<10, to: fixture.logPath + ".1")
        try fixture.append(10..<12)
        #expect(await waitUntil(timeout: 60) { payloadObjects(subscriber.payloads).count >= 12 }, "\(second.status)")
        #expect(await waitUntil(timeout: 10) { second.status.backlog == 0 })
        await fixture.stop(second)
        #expect(payloadObjects(subscriber.payloads).compactMap { $0["tst"]?.intValue } == (0..<12).map { Int(PublisherFixture.record($0).time) })

        // Rotated and the rotated file deleted before it was sent: counted, and the new log is published.
        try fixture.append(12..<14)
        #expect(rename(fixture.logPath, fixture.logPath + ".1") == 0)
        #expect(unlink(fixture.logPath + ".1") == 0)
        try fixture.append(14..<16)
        let third = try fixture.publisher(fixture.settings(broker))
        #expect(await waitUntil(timeout: 60) { payloadObjects(subscriber.payloads).count >= 14 }, "\(third.status)")
        #expect(third.status.lostFiles == 1)
        await fixture.stop(third)
        #expect(payloadObjects(subscriber.payloads).compactMap { $0["tst"]?.intValue }.suffix(2) == [14, 15].map { Int(PublisherFixture.record($0).time) })
    }

    @Test func aWrongPasswordIsAClearStatusAndNothingIsLost() async throws {
        let broker = try await Mosquitto("auth", options: .init(users: ["board-one": "right-secret"]))
        let subscriber = try await MQTTSubscriber(broker, topic: "owntracks/board/one", extra: ["-u", "board-one", "-P", "right-secret"])
        let fixture = try PublisherFixture("auth")
        let secret = fixture.directory.file("mqtt.secret")
        try FileIO.write(secret, Array("wrong-secret\n".utf8), mode: 0o600)
        try fixture.append(0..<4)
        let publisher = try fixture.publisher(fixture.settings(broker) {
            $0.username = "board-one"
            $0.passwordFile = secret
        })
        // The state and the backlog are refreshed at different points of the publisher's turn: wait for both.
        #expect(await waitUntil(timeout: 60) { publisher.status.state == .refused && publisher.status.backlog == 4 },
                "\(publisher.status)")
        #expect(publisher.status.detail.contains("not authorised") || publisher.status.detail.contains("user name or password"),
                "\(publisher.status.detail)")
        #expect(payloadObjects(subscriber.payloads).isEmpty)

        // The password is read again on every attempt: fixed, the backlog goes out.
        try FileIO.write(secret, Array("right-secret\n".utf8), mode: 0o600)
        #expect(await waitUntil(timeout: 90) { payloadObjects(subscriber.payloads).count >= 4 }, "\(publisher.status)")
        #expect(await waitUntil(timeout: 10) { publisher.status.backlog == 0 })
        await fixture.stop(publisher)
    }

    @Test func aPasswordFileEveryoneMayReadIsRefused() async throws {
        let broker = try await Mosquitto("mode")
        let fixture = try PublisherFixture("mode")
        let secret = fixture.directory.file("mqtt.secret")
        try FileIO.write(secret, Array("secret\n".utf8), mode: 0o644)
        #expect(chmod(secret, 0o644) == 0)
        let publisher = try fixture.publisher(fixture.settings(broker) {
            $0.username = "board-one"
            $0.passwordFile = secret
        })
        #expect(await waitUntil(timeout: 30) { publisher.status.state == .misconfigured }, "\(publisher.status)")
        #expect(publisher.status.detail.contains("readable by every user"))
        await fixture.stop(publisher)
    }

    @Test func tlsWithAThrowawayCA() async throws {
        let pki = try await ThrowawayPKI("tls")
        let broker = try await Mosquitto("tls", options: .init(tls: (pki.caCert, pki.serverCert, pki.serverKey)))
        let subscriber = try await MQTTSubscriber(broker, topic: "owntracks/board/one", extra: ["--cafile", pki.caCert])
        let fixture = try PublisherFixture("tls")
        try fixture.append(0..<5)
        let publisher = try fixture.publisher(fixture.settings(broker) { $0.tlsCA = pki.caCert })
        #expect(await waitUntil(timeout: 60) { payloadObjects(subscriber.payloads).count >= 5 }, "\(publisher.status)")
        #expect(publisher.status.broker.hasPrefix("mqtts://"))
        await fixture.stop(publisher)

        // A CA that did not sign the broker's certificate: a TLS failure, said so.
        let other = try await ThrowawayPKI("other")
        let refused = try fixture.publisher(fixture.settings(broker) { $0.tlsCA = other.caCert })
        #expect(await waitUntil(timeout: 60) { refused.status.state == .tls }, "\(refused.status)")
        await fixture.stop(refused)
    }
}

/// A CA and a server certificate for 127.0.0.1 and localhost, made with openssl for one test.
struct ThrowawayPKI {
    let directory: ScratchDirectory
    var caCert: String { directory.file("ca.crt") }
    var caKey: String { directory.file("ca.key") }
    var serverCert: String { directory.file("server.crt") }
    var serverKey: String { directory.file("server.key") }

    init(_ label: String) async throws {
        directory = try ScratchDirectory("pki-\(label)")
        let openssl = ExternalTool.path("openssl") ?? "openssl"
        let extensions = directory.file("san.cnf")
        try FileIO.write(extensions, "subjectAltName = IP:127.0.0.1, DNS:localhost\n")
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", caCert, "-days", "2",
             "-subj", "/CN=locationd test CA \(label)"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", serverKey, "-out", directory.file("server.csr"),
             "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", directory.file("server.csr"), "-CA", caCert, "-CAkey", caKey, "-CAcreateserial",
             "-out", serverCert, "-days", "2", "-extfile", extensions],
        ]
        for step in steps {
            let outcome = try await ChildProcess.run([openssl] + step)
            guard outcome.status == 0 else { throw SupportError("openssl \(step[0]) failed: \(outcome.stderr)") }
        }
    }
}
