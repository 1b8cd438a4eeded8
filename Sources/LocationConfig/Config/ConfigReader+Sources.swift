/// `[source]` and `[source.NAME]`: where fixes come from (docs/sources.md, "Several sources").
///
/// `[source]` is the source named `default`; each `[source.NAME]` one more, in file order after
/// it. A `[source]` holding only `failover` beside `[source.NAME]` sections is no source itself
/// (it only sets `failover`, which is one for all receivers); with no source section at all the
/// one source is gpsd at 127.0.0.1:2947, as always. Two sources on one endpoint are an error.
extension ConfigReader {
    /// The source section an unknown one was likely meant to be: `[sources.gnss]` and
    /// `[sourse.gnss]` → `source.gnss`; `nil` when none is near.
    static func sourceSection(like name: String) -> String? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty, let head = parts.first,
            ConfigError.closest(to: head, in: ["source"]) != nil
        else { return nil }
        return "source." + parts[1]
    }

    /// Reads every source section of `sections` into `config.sources` and `config.failover`.
    mutating func readSources(_ sections: [INIParser.Section], into config: inout DaemonConfig) {
        let named = sections.filter { $0.name.hasPrefix("source.") }
        var found: [(source: NamedSource, section: INIParser.Section)] = []
        var plainIsSource = false
        if let plain = sections.first(where: { $0.name == "source" }) {
            plainIsSource = named.isEmpty || plain.entries.contains { $0.key != "failover" }
            var failover: Double?
            let endpoint = readEndpoint(plain, failover: &failover)
            if let failover { config.failover = failover }
            if plainIsSource, let endpoint { found.append((NamedSource(endpoint), plain)) }
        }
        for section in named {
            let name = String(section.name.dropFirst("source.".count))
            guard NamedSource.isName(name) else {
                errors.append(.unknownSection(
                    file: file, line: section.line, section: section.name,
                    note: "a source name is 1 to \(NamedSource.maximumNameLength) letters, digits, - or _"))
                continue
            }
            if name == NamedSource.defaultName, plainIsSource {
                errors.append(.unknownSection(
                    file: file, line: section.line, section: section.name,
                    note: "[source] is the source named default already; give this one another name"))
                continue
            }
            var unused: Double?
            guard let endpoint = readEndpoint(section, failover: &unused) else { continue }
            let source = NamedSource(name: name, endpoint)
            // `[source.default]` is `[source]` by another header: it goes first, as `[source]` would.
            if name == NamedSource.defaultName { found.insert((source, section), at: 0) } else { found.append((source, section)) }
        }
        checkSharedEndpoints(found)
        if !found.isEmpty { config.sources = found.map(\.source) }
    }

    /// Two sources reading one gpsd or one device would each see the same receivers (or half of
    /// one device's sentences): refused, naming both.
    private mutating func checkSharedEndpoints(_ found: [(source: NamedSource, section: INIParser.Section)]) {
        var owners: [String: String] = [:]
        for (source, section) in found {
            let key: String
            let entryKey: String
            let what: String
            switch source.endpoint {
            case .gpsd(let host, let port):
                key = "gpsd \(host.lowercased()) \(port)"
                entryKey = "host"
                what = "\(source.endpoint) (one connection to a gpsd brings every receiver it has)"
            case .nmea(let device, _):
                key = "nmea \(device)"
                entryKey = "device"
                what = "\(device) (two readers of one device would each get part of its sentences)"
            }
            guard let owner = owners[key] else {
                owners[key] = "[\(source.section)]"
                continue
            }
            let entry = section.entries.last { $0.key == entryKey }
            errors.append(.conflict(
                file: file, line: entry?.line ?? section.line, section: section.name, key: entryKey,
                value: entry?.value ?? "",
                detail: "[\(section.name)] reads \(what), as \(owner) does already: give each source its own endpoint, or remove one"))
        }
    }

    /// One source section's endpoint; `failover` is read into `failover` where the section may set
    /// it (`[source]`), and refused where it may not (`nil` on entry). `nil` when the section has errors.
    private mutating func readEndpoint(_ section: INIParser.Section, failover: inout Double?) -> SourceConfig? {
        var draft = SourceDraft(line: section.line)
        let plain = section.name == "source"
        for entry in section.entries {
            guard plain || entry.key != "failover" else {
                errors.append(ConfigError(
                    kind: .unknownKey, file: file, line: entry.line, section: section.name, key: entry.key,
                    detail: "[\(section.name)] failover: one failover holds for every receiver of every source; set it in [source]"))
                continue
            }
            read(entry, section, plain ? Self.sourceRows : Self.namedSourceRows, into: &draft)
        }
        if let seconds = draft.failover { failover = seconds }
        guard draft.type == "nmea" else {
            // device and baud are checked but unused with gpsd, so switching type is a one-line change.
            return .gpsd(host: draft.host, port: draft.port)
        }
        guard let device = draft.device else {
            // Only complain when device was not merely refused above.
            if !section.entries.contains(where: { $0.key == "device" }) {
                errors.append(.missingKey(
                    file: file, line: draft.typeLine, section: section.name, key: "device",
                    detail: "[\(section.name)] type = nmea needs device = PATH (the serial device, FIFO or file the NMEA comes from)"))
            }
            return nil
        }
        return .nmea(device: device, baud: draft.baud)
    }
}
