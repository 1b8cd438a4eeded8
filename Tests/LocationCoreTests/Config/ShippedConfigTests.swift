import Foundation
import Testing
import TestSupport
@testable import LocationConfig
@testable import LocationCore

/// The config file the package installs as /etc/locationd/locationd.conf.
@Suite struct ShippedConfigTests {
    static let path = PackagePaths.path("config/locationd.conf")

    private func load(environment: [String: String] = [:]) throws -> DaemonConfig {
        let text = String(decoding: try FileIO.read(Self.path), as: UTF8.self)
        return try DaemonConfig.parse(text, file: Self.path, environment: environment)
    }

    @Test func shippedConfigDeclaresTheLoggerOfTheSpec() throws {
        let config = try load()
        #expect(config.clients.map(\.name) == ["logger"])
        let logger = try #require(config.client(named: "logger"))
        #expect(logger.distanceFilter == 5)
        #expect(logger.desiredAccuracy == .kilometer)
        #expect(logger.authorization == .ask)
        #expect(logger.precise)
        #expect(logger.updating)
        #expect(logger.inUse)
        #expect(logger.usage == "Logs coordinates for field tests")
        #expect(logger.usageAlways == nil)
        #expect(logger.purposes == ["survey": "Precise track for a survey"])
        #expect(logger.onceGrace == 60 && logger.reducedGrid == 2000 && logger.reducedInterval == 900 && logger.locateTimeout == 30)
        #expect(config.logPath(forClient: "logger") == "/var/log/locationd/logger.jsonl")
        #expect(config.source == .gpsd(host: "127.0.0.1", port: 2947))
        #expect(config.socket == "/run/locationd/control.sock")
        #expect(config.socketGroup == "locationd")
        #expect(config.statePath == "/var/lib/locationd/state.json")
        #expect(config.services && config.fsync == .always)
        #expect(config.restricted.isEmpty)
    }

    @Test func shippedConfigTakesItsPathsFromSystemd() throws {
        let config = try load(environment: [
            "STATE_DIRECTORY": "/var/lib/locationd", "LOGS_DIRECTORY": "/var/log/locationd", "RUNTIME_DIRECTORY": "/run/locationd",
        ])
        #expect(config == (try load()))
        let moved = try load(environment: ["LOGS_DIRECTORY": "/srv/logs", "RUNTIME_DIRECTORY": "/run/l2"])
        #expect(moved.logPath(forClient: "logger") == "/srv/logs/logger.jsonl")
        #expect(moved.socket == "/run/l2/control.sock")
    }

    @Test func everyOptionalClientKeyIsShownCommentedOut() throws {
        let text = String(decoding: try FileIO.read(Self.path), as: UTF8.self)
        for key in ["split", "raw_log", "heartbeat", "usage_always", "once_grace", "reduced_grid", "reduced_interval", "locate_timeout", "device", "baud",
                    "socket", "state_dir", "log_dir"] {
            #expect(text.contains("\n# \(key) = "), "\(key) is not shown commented out")
        }
    }

    @Test func examplesInTheManPageParse() throws {
        let page = String(decoding: try FileIO.read(PackagePaths.path("docs/locationd.conf.5.md")), as: UTF8.self)
        let examples = try #require(page.components(separatedBy: "## EXAMPLES").last?.components(separatedBy: "## SEE ALSO").first)
        // Each run of four-space-indented lines (blank lines included) is one example file.
        var blocks: [String] = []
        var current: [String] = []
        for line in examples.components(separatedBy: "\n") {
            if line.hasPrefix("    ") {
                current.append(String(line.dropFirst(4)))
            } else if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if !current.isEmpty { current.append("") }
            } else if !current.isEmpty {
                blocks.append(current.joined(separator: "\n"))
                current = []
            }
        }
        if !current.isEmpty { blocks.append(current.joined(separator: "\n")) }
        #expect(blocks.count == 5)
        let shipped = try DaemonConfig.parse(blocks[0], file: "example 1")
        #expect(shipped.engineSettings.clients == (try load()).engineSettings.clients)
        let second = try DaemonConfig.parse(blocks[1], file: "example 2")
        #expect(second.source == .nmea(device: "/dev/ttyACM0", baud: 38_400))
        #expect(second.client(named: "weather")?.usage == "Local forecast #1: the town you are in")
        #expect(second.restricted == ["tracker"])
        let third = try DaemonConfig.parse(blocks[2], file: "example 3")
        #expect(third.client(named: "qgis")?.programs.gpsdPort == 2948)
        #expect(third.client(named: "qgis")?.programs.allowGroups == ["users"])
        #expect(third.client(named: "geoclue")?.programs.nmeaSocket == "/run/locationd/geoclue.nmea")
        #expect(third.clients.allSatisfy { $0.log == nil })
        let sources = try DaemonConfig.parse(blocks[3], file: "example 4")
        #expect(sources.sources.map(\.name) == ["usb", "modem"])
        #expect(sources.sources.last?.endpoint == .nmea(device: "/dev/ttyUSB2", baud: 115_200))
        #expect(sources.client(named: "modem-test")?.receiver == "/dev/ttyUSB2")
        let fleet = try DaemonConfig.parse(blocks[4], file: "example 5")
        #expect(fleet.client(named: "fleet")?.mqtt?.broker == "mqtt.example.org:8883")
        #expect(fleet.client(named: "fleet")?.mqtt?.scheme == "mqtts")
    }

    @Test func renderedShippedConfigParsesBack() throws {
        let config = try load()
        #expect(try DaemonConfig.parse(config.rendered, file: Self.path) == config)
    }
}
