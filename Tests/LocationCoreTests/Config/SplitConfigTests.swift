import Testing
@testable import LocationConfig
@testable import LocationCore
@testable import LocationValues

/// `split` and the fields of `log` in locationd.conf (locationd.conf(5)): read, rendered back, and
/// refused with a reason when they cannot work together.
@Suite struct SplitConfigTests {
    let file = "/etc/locationd/locationd.conf"

    func errors(_ text: String) -> [ConfigError] {
        do {
            _ = try DaemonConfig.parse(text, file: file, environment: [:])
            return []
        } catch {
            return error.errors
        }
    }

    @Test func aSplitLogIsReadResolvedAndRenderedBack() throws {
        let text = "[daemon]\nlog_dir = /var/log/100%\n\n[client.logger]\nlog = logger/%Y%m%d-%H.jsonl\nsplit = hour\n"
        let config = try DaemonConfig.parse(text, file: file, environment: [:])
        #expect(config.clients.first?.split == .hour)
        let pattern = try #require(config.logPattern(forClient: "logger"))
        #expect(pattern.split == .hour)
        #expect(pattern.expand(at: UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 9, minute: 5, second: 0))
                == "/var/log/100%/logger/20260314-09.jsonl", "a % in log_dir is no field")
        let again = try DaemonConfig.parse(config.rendered, file: file, environment: [:])
        #expect(again.clients.first?.split == .hour)
        #expect(config.rendered.contains("split = hour\n"))
    }

    @Test(arguments: [
        ("log = a-%Q.jsonl", "%Q is no field"),
        ("log = a-%Y%m%d-%H.jsonl", "add split"),
        ("log = a-%H.jsonl\nsplit = hour", "every period its own file name"),
        ("log = a-%r.jsonl\nsplit = 64M", "%r names a receiver"),
        ("split = hour", "has neither"),
        ("raw_log = raw/ubx.raw", "%r (the receiver's name)"),
        ("raw_log = raw/%r-%Y%m%d.raw", "add split"),
        ("raw_log = raw/%r-%Y%m%d.raw\nsplit = hour", "every period its own file name"),
        ("log = a-%Y%m%d-%H.jsonl\nsplit = hourly", "accepted values"),
        ("log = a-%Y%m%d-%H.jsonl\nsplit = hour\nmqtt_broker = broker.example:8883\nmqtt_topic = owntracks/board/one", "follows one file"),
    ])
    func aSplitThatCannotWorkIsRefusedWithItsReason(_ keys: String, _ reason: String) {
        let found = errors("[client.logger]\n\(keys)\n")
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.description.contains(reason) == true, "\(found)")
    }
}

/// `heartbeat = SECONDS`: read, rendered back, and refused below a second.
@Suite struct HeartbeatConfigTests {
    @Test func heartbeatIsReadAndRenderedBack() throws {
        let config = try DaemonConfig.parse("[client.logger]\nlog = l.jsonl\nheartbeat = 300\n", file: "t.conf", environment: [:])
        #expect(config.clients.first?.heartbeat == 300)
        #expect(try DaemonConfig.parse(config.rendered, file: "t.conf", environment: [:]).clients.first?.heartbeat == 300)
        #expect(throws: ConfigErrors.self) { try DaemonConfig.parse("[client.logger]\nheartbeat = 0.5\n", file: "t.conf", environment: [:]) }
        let mqtt = "[client.logger]\nlog = l.jsonl\nheartbeat = 60\nmqtt_broker = broker.example:8883\nmqtt_topic = owntracks/board/one\n"
        #expect(throws: ConfigErrors.self) { try DaemonConfig.parse(mqtt, file: "t.conf", environment: [:]) }
    }
}
