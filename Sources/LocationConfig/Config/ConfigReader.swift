import LocationProtocol

/// Gives the INI sections of locationd.conf their meaning: checks every key
/// and value, collects every problem, and builds a `DaemonConfig`.
struct ConfigReader {
    /// The keys a `[client.NAME]` section takes (ConfigKeyTable.swift declares every section's).
    static let clientKeys = names(in: .client)

    static let booleans = "on or off"
    static let accuracyWords = DesiredAccuracy.words.joined(separator: ", ") + ", or a number of metres"
    static let authorizationWords = "ask, never, while-using, or always"

    let file: String
    let environment: [String: String]
    var errors: [ConfigError] = []

    init(file: String, environment: [String: String]) {
        self.file = file
        self.environment = environment
    }

    /// The client section an unknown one was likely meant to be: `[cleint.logger]` and
    /// `[clients.logger]` → `client.logger`, `[clients]` → `client.NAME`; `nil` when none is near.
    static func clientSection(like name: String) -> String? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard let head = parts.first, ConfigError.closest(to: head, in: ["client"]) != nil else { return nil }
        return "client." + (parts.count == 2 && !parts[1].isEmpty ? parts[1] : "NAME")
    }

    /// The section a key belongs in, for a key written before any header: the first that
    /// declares it (`socket_mode` is `[daemon]`'s before it is a client's).
    static func home(of key: String) -> String? {
        allKeys.first { $0.matches(key) }?.section.rawValue
    }

    mutating func read(_ sections: [INIParser.Section]) -> DaemonConfig {
        var config = DaemonConfig(file: file)
        if let dir = systemdDirectory("STATE_DIRECTORY") { config.stateDirectory = dir }
        if let dir = systemdDirectory("LOGS_DIRECTORY") { config.logDirectory = dir }
        if let dir = systemdDirectory("RUNTIME_DIRECTORY") { config.socket = DaemonConfig.join(dir, DaemonConfig.socketName) }

        var restricted: (names: [String], line: Int)?
        var clientLogLines: [String: Int] = [:]
        for section in sections {
            switch section.name {
            case "daemon":
                readDaemon(section, into: &config)
            case "source":
                continue  // with the `[source.NAME]` sections, below
            case "policy":
                restricted = readPolicy(section)
            case "geoclue":
                config.geoclue = readGeoClue(section)
            case "client":
                errors.append(.unknownSection(
                    file: file, line: section.line, section: section.name, note: "a client needs a name: [client.NAME]"))
            default:
                if section.name.hasPrefix("source.") {
                    continue
                } else if section.name.hasPrefix("client.") {
                    if let client = readClient(section) {
                        config.clients.append(client.settings)
                        clientLogLines[client.settings.name] = client.logLine
                    }
                } else {
                    let guess = ConfigError.closest(to: section.name, in: Self.plainSections)
                        ?? Self.clientSection(like: section.name) ?? Self.sourceSection(like: section.name)
                    errors.append(.unknownSection(
                        file: file, line: section.line, section: section.name, note: guess.map { "did you mean [\($0)]?" }))
                }
            }
        }
        readSources(sections, into: &config)
        checkLogConflicts(config, lines: clientLogLines)
        checkProgramConflicts(config, sections: sections)
        checkSocketAccessKeys(config, sections: sections)
        if let restricted {
            let known = config.clients.map(\.name)
            for name in restricted.names where !known.contains(name) {
                errors.append(.badValue(
                    file: file, line: restricted.line, section: "policy", key: "restricted", value: name,
                    accepted: known.isEmpty ? "names of [client.NAME] sections, and there are none" : "client names: " + ConfigError.listed(known),
                    note: "every restricted name must be a configured client"))
            }
            var seen: Set<String> = []
            config.restricted = restricted.names.filter { known.contains($0) && seen.insert($0).inserted }
        }
        return config
    }

    // MARK: - Sections

    /// The sections written without a name: `[daemon]`, `[source]`, `[geoclue]`, `[policy]`.
    static let plainSections = ConfigKey.Section.allCases.map(\.rawValue).filter { !$0.contains(".") }

    private mutating func readDaemon(_ section: INIParser.Section, into config: inout DaemonConfig) {
        read(section, Self.daemonRows, into: &config)
    }

    private mutating func readPolicy(_ section: INIParser.Section) -> (names: [String], line: Int)? {
        var restriction: Restriction?
        read(section, Self.policyRows, into: &restriction)
        return restriction.map { ($0.names, $0.line) }
    }

    private mutating func readClient(_ section: INIParser.Section) -> (settings: ClientSettings, logLine: Int)? {
        let name = String(section.name.dropFirst("client.".count))
        guard ClientSettings.isName(name) else {
            errors.append(.unknownSection(
                file: file, line: section.line, section: section.name,
                note: "a client name is 1 to 64 letters, digits, - or _"))
            return nil
        }
        var client = ClientSettings(name: name)
        read(section, Self.clientRows, into: &client)
        let logEntry = section.entries.last { $0.key == "log" }
        let splitEntry = section.entries.last { $0.key == "split" }
        let rawEntry = section.entries.last { $0.key == "raw_log" }
        let logLine = logEntry?.line ?? section.line
        // The mqtt_* keys depend on one another and on `log`: read together, once the rest is.
        let mqtt = section.entries.filter { MQTTSettings.keys.contains($0.key) }
        client.mqtt = readMQTT(mqtt, section, client: client)
        if client.heartbeat != nil, client.mqtt != nil, let entry = section.entries.last(where: { $0.key == "heartbeat" }) {
            errors.append(.conflict(
                file: file, line: entry.line, section: section.name, key: entry.key, value: entry.value,
                detail: "[\(section.name)] heartbeat = \(entry.value): the client publishes its log's records over MQTT, and a heartbeat is none: remove heartbeat or the mqtt keys"))
        }
        // A split that could not be read is reported already; what the log needs of it is not.
        if splitEntry == nil || client.split != nil || splitEntry?.value == "none" || splitEntry?.value == "" {
            checkSplit(client, section, log: logEntry, split: splitEntry)
            if let rawEntry, let raw = client.rawLog { checkRawLog(raw, client, section, entry: rawEntry) }
        }
        return (client, logLine)
    }

    /// The log's fields and the client's `split` must agree (locationd.conf(5), `split`): known
    /// fields only; time fields only with a split; a clock split needs fields that give each
    /// period its own name; an MQTT client's log is followed as one file, so it is not cut.
    private mutating func checkSplit(
        _ client: ClientSettings, _ section: INIParser.Section, log: INIParser.Entry?, split: INIParser.Entry?
    ) {
        func conflict(_ entry: INIParser.Entry, _ detail: String) {
            errors.append(.conflict(
                file: file, line: entry.line, section: section.name, key: entry.key, value: entry.value,
                detail: "[\(section.name)] \(entry.key) = \(ConfigError.quoted(entry.value)): \(detail)"))
        }
        if let log, let text = client.log {
            if let problem = LogFilePattern.problem(in: text) {
                conflict(log, problem)
                return
            }
            let pattern = LogFilePattern(text, split: client.split)
            if pattern.hasReceiverField {
                conflict(log, "%r names a receiver's raw capture (raw_log); the coordinate log is one for all receivers")
            } else if pattern.hasTimeFields && client.split == nil {
                conflict(log, "a time field names the files a split cuts: add split = hour, day, N min or a size, or write %% for a %")
            } else if !pattern.separatesPeriods, let split = client.split {
                conflict(log, "split = \(split) needs time fields that give every period its own file name (e.g. %Y%m%d-%H for hour)")
            }
        }
        guard let split, let value = client.split else { return }
        if client.log == nil && client.rawLog == nil {
            conflict(split, "split cuts the client's log and raw capture, and it has neither (set log or raw_log)")
        } else if client.mqtt != nil && client.log != nil {
            conflict(split, "the client publishes its log over MQTT, which follows one file: remove split or the mqtt keys (\(value))")
        }
    }

    /// `raw_log` must name each receiver's files apart (`%r`), and its time fields follow `split`
    /// as the log's do.
    private mutating func checkRawLog(_ raw: String, _ client: ClientSettings, _ section: INIParser.Section, entry: INIParser.Entry) {
        func conflict(_ detail: String) {
            errors.append(.conflict(
                file: file, line: entry.line, section: section.name, key: entry.key, value: entry.value,
                detail: "[\(section.name)] raw_log = \(ConfigError.quoted(entry.value)): \(detail)"))
        }
        if let problem = LogFilePattern.problem(in: raw) { return conflict(problem) }
        let pattern = LogFilePattern(raw, split: client.split)
        if !pattern.hasReceiverField {
            conflict("%r (the receiver's name) keeps each receiver's bytes in files of its own: add it, e.g. raw/%r-%Y%m%d-%H.raw")
        } else if pattern.hasTimeFields && client.split == nil {
            conflict("a time field names the files a split cuts: add split = hour, day, N min or a size")
        } else if !pattern.separatesPeriods, let split = client.split {
            conflict("split = \(split) needs time fields that give every period its own file name (e.g. %Y%m%d-%H for hour)")
        }
    }

    /// Two clients writing one file would interleave their records; the audit log is the daemon's own.
    private mutating func checkLogConflicts(_ config: DaemonConfig, lines: [String: Int]) {
        var owners: [String: String] = [config.auditLogPath: "the audit log"]
        for client in config.clients {
            guard let path = config.logPath(forClient: client.name), let log = client.log else { continue }
            let line = lines[client.name] ?? 0
            if let owner = owners[path] {
                errors.append(.conflict(
                    file: file, line: line, section: "client.\(client.name)", key: "log", value: log,
                    detail: "[client.\(client.name)] log = \(ConfigError.quoted(log)) is \(path), already \(owner): give each client its own log file"))
            } else {
                owners[path] = "[client.\(client.name)]'s log"
            }
        }
    }

    // MARK: - Values

    mutating func bad(_ entry: INIParser.Entry, _ section: INIParser.Section, accepted: String, note: String? = nil) {
        errors.append(.badValue(
            file: file, line: entry.line, section: section.name, key: entry.key, value: entry.value,
            accepted: accepted, note: note))
    }

    /// A value that may be empty for "none": `.some(nil)` when empty,
    /// `.some(value)` when `isValid` accepts it, else reported and `nil`.
    mutating func optionalValue(
        _ entry: INIParser.Entry, _ section: INIParser.Section, accepted: String, _ isValid: (String) -> Bool
    ) -> String?? {
        if entry.value.isEmpty { return .some(nil) }
        if isValid(entry.value) { return .some(entry.value) }
        bad(entry, section, accepted: accepted)
        return nil
    }

    /// A value `parse` reads (`Self.decimal`, `Self.integer`) and `isAllowed`
    /// accepts, else reported and `nil`.
    mutating func value<T>(
        _ entry: INIParser.Entry, _ section: INIParser.Section, _ parse: (String) -> T?, accepted: String,
        where isAllowed: (T) -> Bool
    ) -> T? {
        if let parsed = parse(entry.value), isAllowed(parsed) { return parsed }
        bad(entry, section, accepted: accepted)
        return nil
    }

    mutating func boolean(_ entry: INIParser.Entry, _ section: INIParser.Section) -> Bool? {
        switch entry.value.lowercased() {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default:
            bad(entry, section, accepted: Self.booleans, note: "yes/no, true/false and 1/0 work too")
            return nil
        }
    }

    mutating func absolutePath(_ entry: INIParser.Entry, _ section: INIParser.Section, maxLength: Int? = nil) -> String? {
        var path = entry.value
        guard path.hasPrefix("/"), !path.contains("\0") else {
            bad(entry, section, accepted: "an absolute path (starting with /)")
            return nil
        }
        if let maxLength, path.utf8.count > maxLength {
            bad(entry, section, accepted: "an absolute path of at most \(maxLength) bytes")
            return nil
        }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private func systemdDirectory(_ name: String) -> String? {
        guard let value = environment[name] else { return nil }
        let first = value.split(separator: ":", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return first.hasPrefix("/") ? first : nil
    }

    static func isLogPath(_ text: String) -> Bool {
        guard !text.hasSuffix("/"), !text.contains("\0") else { return false }
        return !text.split(separator: "/").contains("..")
    }

    static func isGroupName(_ name: String) -> Bool {
        name.utf8.count <= 32 && name.first != "-" && name.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_" || s == "-" || s == "."
        }
    }

    /// A plain decimal number: `5`, `2.5`, `1e3`, `-1` (no hex, `inf` or `nan`).
    static func decimal(_ text: String) -> Double? {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            var n = 0
            while let b = bytes.first, b >= 0x30 && b <= 0x39 {
                bytes = bytes.dropFirst()
                n += 1
            }
            return n
        }
        guard digits() > 0 else { return nil }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return nil }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return nil }
        }
        guard bytes.isEmpty, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    static func integer(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}
