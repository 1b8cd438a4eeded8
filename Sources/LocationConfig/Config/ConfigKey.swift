/// One key of locationd.conf, declared once (locationd.conf(5), "SECTIONS AND KEYS"): where it is
/// written, the values it takes, the value an empty file gives it and what a reload does with it.
///
/// The declarations are the rows of `ConfigReader`'s key tables (ConfigKeyTable.swift), one per key,
/// each with the function that reads its value and the one that renders it. Reading, `rendered`
/// (check-config's output), the reload's change notice, the keys and sections an error lists and
/// where a key written before any header belongs all come from those rows; tests check that the
/// man page and the shipped file name the same keys (ConfigKeyTableTests).
public struct ConfigKey: Sendable, Hashable, CustomStringConvertible {
    /// Where a key is written.
    public enum Section: String, Sendable, Hashable, CaseIterable {
        /// `[daemon]`: the daemon's own paths and switches.
        case daemon
        /// `[source]`: the source named `default`, and `failover`.
        case source
        /// `[source.NAME]`: one more source; `[source]`'s keys less `failover`.
        case namedSource = "source.NAME"
        /// `[client.NAME]`: one client.
        case client = "client.NAME"
        /// `[geoclue]`: the GeoClue2-compatible face; present turns it on.
        case geoclue
        /// `[policy]`: what an administrator has locked.
        case policy

        /// `[daemon]`, `[client.NAME]`.
        public var header: String { "[\(rawValue)]" }

        /// Every section as an error lists them: `[daemon], [source], …, [geoclue] and [policy]`.
        public static let listed = allCases.dropLast().map(\.header).joined(separator: ", ") + " and " + allCases[allCases.count - 1].header
    }

    /// What SIGHUP does with a changed value.
    public enum Reload: String, Sendable, Hashable {
        /// The reloaded value takes effect.
        case applies
        /// The running value stays until a restart, and the reload's notice says a restart is needed.
        case restart
    }

    /// The section it is written in (`[source]`'s keys but `failover` also in `[source.NAME]`).
    public var section: Section
    /// The key as written; `purpose.KEY` stands for every `purpose.` followed by a word.
    public var name: String
    /// The values it takes, as locationd.conf(5)'s key list writes them, without the markup.
    public var type: String
    /// The value an empty file gives it, as `check-config` prints it (a sentence where it depends
    /// on something else).
    public var defaultValue: String
    /// What a reload does with it.
    public var reload: Reload

    /// A key from its parts.
    public init(_ section: Section, _ name: String, _ type: String, default defaultValue: String, reload: Reload) {
        self.section = section
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.reload = reload
    }

    /// The prefix of a key that stands for many (`purpose.`), or `nil`.
    var prefix: String? { name.hasSuffix(".KEY") ? String(name.dropLast("KEY".count)) : nil }

    /// Whether `key`, as written in a file, is this key.
    public func matches(_ key: String) -> Bool {
        guard let prefix else { return key == name }
        return key.hasPrefix(prefix) && key.utf8.count > prefix.utf8.count
    }

    /// `[client.NAME] distance_filter`.
    public var description: String { "\(section.header) \(name)" }

    /// Every key, section by section, in the order `rendered` writes them.
    public static var all: [ConfigKey] { ConfigReader.allKeys }

    /// The keys of `section`, in order (`[source.NAME]`: `[source]`'s less `failover`).
    public static func keys(in section: Section) -> [ConfigKey] {
        section == .namedSource ? all.filter { $0.section == .source && $0.name != "failover" } : all.filter { $0.section == section }
    }
}

/// One row of a key table: the key, and how its value is read into and rendered from `Settings`
/// (the `DaemonConfig`, a `ClientSettings`, a source or `[geoclue]` being read).
struct KeyRow<Settings>: Sendable {
    /// Reads `entry` of `section` into the settings, reporting a bad value through the reader.
    typealias Read = @Sendable (inout ConfigReader, INIParser.Entry, INIParser.Section, inout Settings) -> Void
    /// The `key = value` lines the settings hold for this key (none where it does not apply).
    typealias Render = @Sendable (Settings) -> [(key: String, value: String)]

    /// The key's declaration.
    let key: ConfigKey
    /// How a value is read.
    let read: Read
    /// How a value is written back.
    let render: Render

    /// A key written at most once: `render` gives its value, or `nil` where it does not apply.
    init(
        _ section: ConfigKey.Section, _ name: String, _ type: String, default defaultValue: String, reload: ConfigKey.Reload,
        read: @escaping Read, render: @escaping @Sendable (Settings) -> String?
    ) {
        key = ConfigKey(section, name, type, default: defaultValue, reload: reload)
        self.read = read
        self.render = { settings in render(settings).map { [(name, $0)] } ?? [] }
    }

    /// A key that stands for many (`purpose.KEY`): `render` gives every line.
    init(
        _ section: ConfigKey.Section, _ name: String, _ type: String, default defaultValue: String, reload: ConfigKey.Reload,
        read: @escaping Read, renderAll: @escaping Render
    ) {
        key = ConfigKey(section, name, type, default: defaultValue, reload: reload)
        self.read = read
        render = renderAll
    }
}

extension ConfigReader {
    /// Reads every entry of `section` through `rows`.
    mutating func read<Settings>(_ section: INIParser.Section, _ rows: [KeyRow<Settings>], into settings: inout Settings) {
        for entry in section.entries { read(entry, section, rows, into: &settings) }
    }

    /// Reads `entry` through the row of its key; a key no row declares is reported with the keys that are.
    mutating func read<Settings>(
        _ entry: INIParser.Entry, _ section: INIParser.Section, _ rows: [KeyRow<Settings>], into settings: inout Settings
    ) {
        guard let row = rows.first(where: { $0.key.matches(entry.key) }) else {
            errors.append(.unknownKey(
                file: file, line: entry.line, section: section.name, key: entry.key, accepted: rows.map(\.key.name)))
            return
        }
        row.read(&self, entry, section, &settings)
    }

    /// The lines `rows` render from `settings`, in the rows' order.
    static func lines<Settings>(_ rows: [KeyRow<Settings>], _ settings: Settings) -> [(key: String, value: String)] {
        rows.flatMap { $0.render(settings) }
    }

    /// The names of `section`'s keys, for an unknown key's message.
    static func names(in section: ConfigKey.Section) -> [String] { ConfigKey.keys(in: section).map(\.name) }
}
