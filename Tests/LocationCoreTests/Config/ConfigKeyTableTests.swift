import Foundation
import Testing
import TestSupport
@testable import LocationConfig
@testable import LocationCore

/// The key table (`ConfigKey`, ConfigKeyTable.swift) is the one list of keys: reading, check-config's
/// rendering, the reload's notice, the man page's key list and the shipped file follow it, and a key
/// missing from any of them fails here.
@Suite(.timeLimit(.minutes(10))) struct ConfigKeyTableTests {
    static let file = "/etc/locationd/locationd.conf"

    static func parse(_ text: String) throws -> DaemonConfig {
        try DaemonConfig.parse(text, file: file, environment: [:])
    }

    /// Every `key = value` line of `text`, with the section it is in.
    static func lines(_ text: String) -> [(section: String, key: String, value: String)] {
        INIParser.parse(text, file: file).sections.flatMap { section in section.entries.map { (section.name, $0.key, $0.value) } }
    }

    /// The table's key that a line of section `section` writes, if any.
    static func declaration(_ key: String, in section: String) -> ConfigKey? {
        let kind = EveryKeyConfig.kind(of: section)
        return ConfigKey.all.first { $0.section == kind && $0.matches(key) }
    }

    @Test func everyKeyIsDeclaredOnce() {
        var seen: Set<String> = []
        for key in ConfigKey.all { #expect(seen.insert(key.description).inserted, "\(key) is declared twice") }
        #expect(ConfigKey.keys(in: .namedSource).map(\.name) == ["type", "host", "port", "device", "baud"])
    }

    @Test func theEveryKeyConfigSetsEveryKey() throws {
        let written = Self.lines(EveryKeyConfig.text)
        for key in ConfigKey.all {
            #expect(written.contains { Self.declaration($0.key, in: $0.section) == key }, "EveryKeyConfig does not set \(key)")
        }
        _ = try Self.parse(EveryKeyConfig.text)
    }

    @Test func renderedReadsBackToTheSameSettingsGeoClueIncluded() throws {
        let config = try Self.parse(EveryKeyConfig.text)
        let again = try Self.parse(config.rendered)
        #expect(again == config)
        #expect(again.geoclue == GeoClueSettings(
            bus: .address("unix:path=/run/every/bus"), maximumApps: 8, newAppsAsk: false, precise: false,
            usage: "The app %s wants to know where you are."))
        #expect(again.client(named: "full")?.geoclueId == "org.gnome.Maps")
        #expect(again.client(named: "full")?.split == .hour && again.client(named: "full")?.heartbeat == 300)
        #expect(again.client(named: "pub")?.mqtt?.tlsKey == "/etc/locationd/board.key")
        #expect(again.sources.map(\.name) == ["default", "net"])
    }

    /// Rendering the every-key configuration writes each key with the value it was given (none of
    /// them its default), and no line the table does not declare.
    @Test func renderedWritesEveryKeyAndOnlyDeclaredOnes() throws {
        let rendered = Self.lines(try Self.parse(EveryKeyConfig.text).rendered)
        for line in rendered {
            #expect(Self.declaration(line.key, in: line.section) != nil, "rendered [\(line.section)] \(line.key) is in no table")
        }
        for key in ConfigKey.all {
            let values = rendered.filter { Self.declaration($0.key, in: $0.section) == key }.map(\.value)
            #expect(values.contains { $0 != key.defaultValue }, "\(key) is not rendered with the value it was given: \(values)")
        }
    }

    /// An empty file's rendering writes each key at the default its row declares.
    @Test func defaultsAreTheTablesDefaults() throws {
        var compared: Set<String> = []
        func check(_ text: String, only keys: Set<String>? = nil) throws {
            for line in Self.lines(try Self.parse(text).rendered) {
                let key = try #require(Self.declaration(line.key, in: line.section))
                guard keys?.contains(key.name) ?? true else { continue }
                #expect(line.value == key.defaultValue, "\(key) renders \(line.value) by default, its row says \(key.defaultValue)")
                compared.insert(key.description)
            }
        }
        try check("[client.NAME]\n[geoclue]\n")
        try check("[source]\ntype = nmea\ndevice = /dev/ttyUSB0\n", only: ["baud"])
        try check("[client.NAME]\nlog = n.jsonl\nmqtt_broker = h\n", only: Set(MQTTSettings.keys).subtracting(["mqtt_broker", "mqtt_tid"]))
        // Defaults that are sentences: none, or one made of the client's name.
        let sentences: Set<String> = ["[source] device", "[client.NAME] purpose.KEY", "[client.NAME] mqtt_broker", "[client.NAME] mqtt_tid"]
        #expect(compared.union(sentences) == Set(ConfigKey.all.map(\.description)))
    }

    /// The reload's notice names every key a reload changes, whichever it is.
    @Test(arguments: ConfigKey.all)
    func theReloadNoticeNamesEveryChangedKey(_ key: ConfigKey) throws {
        let running = try Self.parse(EveryKeyConfig.text)
        let reloaded = try Self.parse(EveryKeyConfig.changing(key))
        let changes = ConfigChanges.between(running, reloaded)
        let name = key.prefix ?? key.name
        #expect(changes.contains { $0.contains("] \(name)") }, "changing \(key) gives the notice \(changes)")
    }

    @Test func anUnknownSectionListsEverySection() throws {
        var found: ConfigErrors?
        do throws(ConfigErrors) { _ = try DaemonConfig.parse("[geoclu]\n", file: Self.file) } catch { found = error }
        #expect(found?.errors.first?.description
            == "\(Self.file):1: unknown section [geoclu] (did you mean [geoclue]?): accepted sections are "
            + "[daemon], [source], [source.NAME], [client.NAME], [geoclue] and [policy]")
    }

    @Test func aKeyBeforeAnyHeaderIsSentToItsSection() {
        #expect(ConfigReader.home(of: "max_apps") == "geoclue")
        #expect(ConfigReader.home(of: "socket_mode") == "daemon")
        #expect(ConfigReader.home(of: "purpose.map") == "client.NAME")
        #expect(ConfigReader.home(of: "failover") == "source")
        #expect(ConfigReader.home(of: "nonsense") == nil)
    }

    // MARK: - The man page and the shipped file

    /// Every `` `key =` `` of locationd.conf(5)'s SECTIONS AND KEYS, with the section heading it is
    /// under and its values without the markup.
    static func manPageKeys() throws -> [(section: String, key: String, type: String)] {
        let page = String(decoding: try FileIO.read(PackagePaths.path("docs/locationd.conf.5.md")), as: UTF8.self)
        let keys = try #require(page.components(separatedBy: "## SECTIONS AND KEYS").last?.components(separatedBy: "\n## ").first)
        var section = ""
        var found: [(String, String, String)] = []
        for line in keys.components(separatedBy: "\n") {
            if line.hasPrefix("### [") {
                section = String(line.dropFirst("### [".count).prefix { $0 != "]" })
            } else if line.hasPrefix("`"), let close = line.range(of: " =`") {
                let key = String(line[line.index(after: line.startIndex)..<close.lowerBound])
                let type = line[close.upperBound...].filter { $0 != "`" && $0 != "*" }.trimmingCharacters(in: .whitespaces)
                found.append((section, key, type))
            }
        }
        return found
    }

    @Test func theManPageListsEveryKeyWithItsValuesAndNoOther() throws {
        let listed = try Self.manPageKeys()
        for (section, key, type) in listed {
            let declared = Self.declaration(key, in: section)
            #expect(declared != nil, "locationd.conf(5) lists [\(section)] \(key), which no table declares")
            if let declared { #expect(declared.type == type, "\(declared): the table says \(declared.type), locationd.conf(5) \(type)") }
        }
        for key in ConfigKey.all {
            #expect(listed.contains { Self.declaration($0.key, in: $0.section) == key }, "locationd.conf(5) does not list \(key)")
        }
    }

    /// config/locationd.conf shows every key, set or commented out (`# key = value`), in its section.
    @Test func theShippedFileShowsEveryKeyAndNoOther() throws {
        let text = String(decoding: try FileIO.read(PackagePaths.path("config/locationd.conf")), as: UTF8.self)
        var section: String?
        var shown: [(section: String, key: String)] = []
        for var line in text.components(separatedBy: "\n") {
            if line.hasPrefix("# ") { line.removeFirst(2) }
            if line.hasPrefix("[") {
                section = String(line.dropFirst().prefix { $0 != "]" })
            } else if let section, let equals = line.range(of: " ="),
                line[..<equals.lowerBound].allSatisfy({ $0.isLetter || $0 == "_" || $0 == "." })
            {
                shown.append((section, String(line[..<equals.lowerBound])))
            }
        }
        for (section, key) in shown {
            #expect(Self.declaration(key, in: section) != nil, "config/locationd.conf shows [\(section)] \(key), which no table declares")
        }
        for key in ConfigKey.all {
            #expect(shown.contains { Self.declaration($0.key, in: $0.section) == key }, "config/locationd.conf does not show \(key)")
        }
    }
}
