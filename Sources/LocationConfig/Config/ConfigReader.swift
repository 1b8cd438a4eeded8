import LocationProtocol

/// Gives the INI sections of locationd.conf their meaning: checks every key
/// and value, collects every problem, and builds a `DaemonConfig`.
struct ConfigReader {
    static let daemonKeys = ["socket", "socket_group", "socket_mode", "report_days", "state_dir", "log_dir", "services", "fsync"]
    static let sourceKeys = ["type", "host", "port", "device", "baud", "failover"]
    static let clientKeys = [
        "log", "distance_filter", "desired_accuracy", "authorization", "precise", "updating", "in_use",
        "usage", "usage_always", "receiver", "purpose.KEY", "once_grace", "reduced_grid", "reduced_interval", "locate_timeout", "geoclue_id", "split", "raw_log", "heartbeat",
    ] + ProgramSettings.keys + AppSettings.keys + MQTTSettings.keys
    static let policyKeys = ["restricted"]

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

    /// The section a key belongs in, for a key written before any header.
    static func home(of key: String) -> String? {
        if daemonKeys.contains(key) { return "daemon" }
        if sourceKeys.contains(key) { return "source" }
        if policyKeys.contains(key) { return "policy" }
        if clientKeys.contains(key) || key.hasPrefix("purpose.") { return "client.NAME" }
        return nil
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
                    let guess = ConfigError.closest(to: section.name, in: ["daemon", "source", "policy", "geoclue"])
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

    private mutating func readDaemon(_ section: INIParser.Section, into config: inout DaemonConfig) {
        for entry in section.entries {
            switch entry.key {
            case "socket":
                if let path = absolutePath(entry, section, maxLength: DaemonConfig.maximumSocketPathLength) {
                    config.socket = path
                }
            case "socket_group":
                if let group = optionalValue(entry, section, accepted: "a group name or number, or nothing for root only", Self.isGroupName) {
                    config.socketGroup = group
                }
            case "socket_mode":
                if entry.value.isEmpty {
                    config.socketMode = DaemonConfig.defaultSocketMode
                } else if let mode = Self.socketMode(entry.value) {
                    config.socketMode = mode
                } else {
                    bad(entry, section, accepted: Self.socketModes)
                }
            case "report_days":
                if let days = value(entry, section, Self.integer, accepted: "a number of days from 1 to 366", where: { (1...366).contains($0) }) {
                    config.reportDays = days
                }
            case "state_dir":
                if let path = absolutePath(entry, section) { config.stateDirectory = path }
            case "log_dir":
                if let path = absolutePath(entry, section) { config.logDirectory = path }
            case "services":
                if let on = boolean(entry, section) { config.services = on }
            case "fsync":
                if let policy = FsyncPolicy(rawValue: entry.value) {
                    config.fsync = policy
                } else {
                    bad(entry, section, accepted: "always or interval")
                }
            default:
                errors.append(.unknownKey(file: file, line: entry.line, section: section.name, key: entry.key, accepted: Self.daemonKeys))
            }
        }
    }

    private mutating func readPolicy(_ section: INIParser.Section) -> (names: [String], line: Int)? {
        var result: (names: [String], line: Int)?
        for entry in section.entries {
            guard entry.key == "restricted" else {
                errors.append(.unknownKey(file: file, line: entry.line, section: section.name, key: entry.key, accepted: Self.policyKeys))
                continue
            }
            let names = entry.value.split { $0 == " " || $0 == "\t" || $0 == "," }.map(String.init)
            result = (names, entry.line)
        }
        return result
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
        var logLine = section.line
        var logEntry: INIParser.Entry?
        var splitEntry: INIParser.Entry?
        var rawEntry: INIParser.Entry?
        var mqtt: [INIParser.Entry] = []
        for entry in section.entries {
            switch entry.key {
            case "log":
                logLine = entry.line
                logEntry = entry
                let accepted = "a file name inside log_dir (no .. and not ending in /), an absolute path, or nothing for no log"
                if let log = optionalValue(entry, section, accepted: accepted, Self.isLogPath) { client.log = log }
            case "raw_log":
                rawEntry = entry
                let accepted = "a file name pattern inside log_dir with %r for the receiver (no .., not ending in /), an absolute one, or nothing"
                if let raw = optionalValue(entry, section, accepted: accepted, Self.isLogPath) { client.rawLog = raw }
            case "heartbeat":
                if entry.value == "none" || entry.value.isEmpty {
                    client.heartbeat = nil
                } else if let s = value(entry, section, Self.decimal, accepted: "none, or a number of seconds (at least 1)", where: { $0 >= 1 }) {
                    client.heartbeat = s
                }
            case "split":
                splitEntry = entry
                if entry.value == "none" || entry.value.isEmpty {
                    client.split = nil
                } else if let split = LogSplit(text: entry.value) {
                    client.split = split
                } else {
                    bad(entry, section, accepted: "none, " + LogSplit.accepted)
                }
            case "distance_filter":
                if entry.value == "none" {
                    client.distanceFilter = nil
                } else if let m = value(entry, section, Self.decimal, accepted: "none, or a number of metres (0 or more)", where: { $0 >= 0 }) {
                    client.distanceFilter = m
                }
            case "desired_accuracy":
                if DesiredAccuracy.words.contains(entry.value), let accuracy = DesiredAccuracy(word: entry.value) {
                    client.desiredAccuracy = accuracy
                } else if let m = value(entry, section, Self.decimal, accepted: Self.accuracyWords, where: { $0 > 0 }) {
                    client.desiredAccuracy = .meters(m)
                }
            case "authorization":
                if let status = AuthorizationStatus(rawValue: entry.value), status != .restricted {
                    client.authorization = status
                } else {
                    bad(entry, section, accepted: Self.authorizationWords,
                        note: entry.value == "restricted" ? "restricted is set by [policy] restricted, not per client" : nil)
                }
            case "precise":
                if let on = boolean(entry, section) { client.precise = on }
            case "updating":
                if let on = boolean(entry, section) { client.updating = on }
            case "in_use":
                if let on = boolean(entry, section) { client.inUse = on }
            case "usage":
                client.usage = entry.value.isEmpty ? nil : entry.value
            case "usage_always":
                client.usageAlways = entry.value.isEmpty ? nil : entry.value
            case "receiver":
                if entry.value == "best" {
                    client.receiver = nil
                } else if !entry.value.isEmpty, !entry.value.contains(where: { $0 == " " || $0 == "\t" }) {
                    client.receiver = entry.value
                } else {
                    bad(entry, section, accepted: "best, or a receiver's device path as gpsd names it (e.g. /dev/ttyUSB0)")
                }
            case "once_grace":
                if let s = value(entry, section, Self.decimal, accepted: "a number of seconds (0 or more)", where: { $0 >= 0 }) { client.onceGrace = s }
            case "reduced_grid":
                if let m = value(entry, section, Self.decimal, accepted: "a number of metres, at least 200", where: { $0 >= 200 }) { client.reducedGrid = m }
            case "reduced_interval":
                if let s = value(entry, section, Self.decimal, accepted: "a number of seconds (0 or more)", where: { $0 >= 0 }) { client.reducedInterval = s }
            case "locate_timeout":
                if let s = value(entry, section, Self.decimal, accepted: "a number of seconds greater than 0", where: { $0 > 0 }) { client.locateTimeout = s }
            case "geoclue_id":
                let accepted = "a GeoClue desktop id (org.gnome.Maps, where-am-i), or nothing; " + DesktopId.rule
                if let id = optionalValue(entry, section, accepted: accepted, DesktopId.isValid) { client.geoclueId = id }
            case let key where ProgramSettings.keys.contains(key):
                readProgramKey(entry, section, into: &client.programs)
            case let key where AppSettings.keys.contains(key):
                readAppKey(entry, section, into: &client.app)
            default:
                if MQTTSettings.keys.contains(entry.key) {
                    mqtt.append(entry)
                } else if entry.key.hasPrefix("purpose.") {
                    let key = String(entry.key.dropFirst("purpose.".count))
                    if key.isEmpty {
                        errors.append(.unknownKey(file: file, line: entry.line, section: section.name, key: entry.key, accepted: Self.clientKeys))
                    } else if entry.value.isEmpty {
                        bad(entry, section, accepted: "a sentence saying why full accuracy is needed")
                    } else {
                        client.purposes[key] = entry.value
                    }
                } else {
                    errors.append(.unknownKey(file: file, line: entry.line, section: section.name, key: entry.key, accepted: Self.clientKeys))
                }
            }
        }
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
    private mutating func optionalValue(
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

    private mutating func boolean(_ entry: INIParser.Entry, _ section: INIParser.Section) -> Bool? {
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

    private static func isLogPath(_ text: String) -> Bool {
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
