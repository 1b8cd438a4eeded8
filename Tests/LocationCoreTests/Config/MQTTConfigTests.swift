import Testing
@testable import LocationConfig
@testable import LocationCore

@Suite struct MQTTConfigTests {
    private let file = "/etc/locationd/locationd.conf"

    private func errors(_ text: String) -> [ConfigError] {
        do {
            _ = try DaemonConfig.parse(text, file: file)
            return []
        } catch {
            return error.errors
        }
    }

    @Test func everyKeyIsRead() throws {
        let config = try DaemonConfig.parse("""
            [client.fleet]
            log = fleet.jsonl
            precise = off
            mqtt_broker = broker.example:8883
            mqtt_topic = owntracks/board/one
            mqtt_tid = b1
            mqtt_qos = 2
            mqtt_username = board-one
            mqtt_password_file = /etc/locationd/mqtt.secret
            mqtt_tls_ca = /etc/ssl/certs/ca-certificates.crt
            mqtt_tls_cert = /etc/locationd/board.crt
            mqtt_tls_key = /etc/locationd/board.key
            """, file: file)
        let mqtt = try #require(config.client(named: "fleet")?.mqtt)
        #expect(mqtt == MQTTSettings(
            host: "broker.example", port: 8883, topic: "owntracks/board/one", trackerID: "b1", qos: 2,
            username: "board-one", passwordFile: "/etc/locationd/mqtt.secret", tlsCA: "/etc/ssl/certs/ca-certificates.crt",
            tlsCert: "/etc/locationd/board.crt", tlsKey: "/etc/locationd/board.key"))
        #expect(mqtt.broker == "broker.example:8883")
        #expect(mqtt.scheme == "mqtts")
        let again = try DaemonConfig.parse(config.rendered, file: file)
        #expect(again == config)
    }

    @Test func defaultsFollowTheClientAndTLS() throws {
        let config = try DaemonConfig.parse("""
            [client.logger]
            log = logger.jsonl
            mqtt_broker = [::1]
            [client.tls]
            log = tls.jsonl
            mqtt_broker = 10.0.0.2
            mqtt_tls_ca = /etc/ssl/ca.pem
            """, file: file)
        let plain = try #require(config.client(named: "logger")?.mqtt)
        #expect(plain.host == "::1")
        #expect(plain.port == 1883)
        #expect(plain.broker == "[::1]:1883")
        #expect(plain.topic == "owntracks/locationd/logger")
        #expect(plain.trackerID == "er")
        #expect(plain.qos == 1)
        #expect(config.client(named: "tls")?.mqtt?.port == 8883)
        #expect(config.client(named: "logger")?.mqtt != nil && ConfigReader.clientKeys.contains("mqtt_broker"))
        #expect(try DaemonConfig.parse(config.rendered, file: file) == config)
    }

    @Test func theLogIsRequiredBecauseItIsTheQueue() {
        let found = errors("""
            [client.fleet]
            mqtt_broker = 127.0.0.1:1883
            """)
        #expect(found.map(\.kind) == [.missingKey])
        #expect(found.first?.key == "log")
        #expect(found.first?.line == 2)
        #expect(found.first?.description.contains("the log is the queue") == true)
    }

    @Test func badValuesAreNamed() {
        let found = errors("""
            [client.fleet]
            log = fleet.jsonl
            mqtt_broker = host:99999
            mqtt_topic = owntracks/+/x
            mqtt_tid = abc
            mqtt_qos = 3
            mqtt_password_file = secret.txt
            mqtt_tls_cert = /etc/c.pem
            """)
        #expect(found.map(\.key) == ["mqtt_broker", "mqtt_topic", "mqtt_tid", "mqtt_qos", "mqtt_password_file", "mqtt_tls_key", "mqtt_tls_ca"])
        #expect(found.allSatisfy { $0.description.hasPrefix(file + ":") })
    }

    @Test func mqttKeysWithoutABrokerAreAnError() {
        let found = errors("""
            [client.fleet]
            log = fleet.jsonl
            mqtt_topic = owntracks/a/b
            """)
        #expect(found.map(\.key) == ["mqtt_broker"])
        #expect(found.first?.line == 3)
    }

    @Test func brokerSyntax() {
        func text(_ broker: String) -> String? { MQTTSettings.parseBroker(broker, tls: false).map { "\($0.host) \($0.port)" } }
        #expect(text("h:1") == "h 1")
        #expect(text("[fe80::1]:2") == "fe80::1 2")
        #expect(MQTTSettings.parseBroker("h", tls: true)?.port == 8883)
        #expect(MQTTSettings.parseBroker("fe80::1", tls: false) == nil)
        #expect(MQTTSettings.parseBroker("h:", tls: false) == nil)
        #expect(MQTTSettings.parseBroker(":1", tls: false) == nil)
        #expect(MQTTSettings.parseBroker("a b:1", tls: false) == nil)
    }
}
