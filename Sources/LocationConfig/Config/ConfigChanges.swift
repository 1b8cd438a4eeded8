/// What a reloaded configuration changes, key by key, for SIGHUP's notice:
/// `[client.logger] distance_filter: 5 → 10`, `[client.survey] added`,
/// `[client.old] removed`. The two configurations are compared through
/// `DaemonConfig.rendered` (every key with its effective value, defaults
/// included) read back by `INIParser`, so every key a file can hold is
/// covered and a key written differently but meaning the same (`5.0`, `5`)
/// is no change.
public enum ConfigChanges {
    /// The changes from `running` to `reloaded`, in the rendered order.
    public static func between(_ running: DaemonConfig, _ reloaded: DaemonConfig) -> [String] {
        let old = sections(running)
        let new = sections(reloaded)
        var changes: [String] = []
        for section in new {
            guard let before = old.first(where: { $0.name == section.name }) else {
                changes.append("[\(section.name)] added")
                continue
            }
            for (key, value) in section.entries {
                guard let was = before.entries.first(where: { $0.key == key })?.value else {
                    changes.append("[\(section.name)] \(key) added: \(shown(value))")
                    continue
                }
                if was != value { changes.append("[\(section.name)] \(key): \(shown(was)) → \(shown(value))") }
            }
            for (key, _) in before.entries where !section.entries.contains(where: { $0.key == key }) {
                changes.append("[\(section.name)] \(key) removed")
            }
        }
        for section in old where !new.contains(where: { $0.name == section.name }) {
            changes.append("[\(section.name)] removed")
        }
        return changes
    }

    private static func sections(_ config: DaemonConfig) -> [(name: String, entries: [(key: String, value: String)])] {
        INIParser.parse(config.rendered, file: config.file).sections.map { section in
            (section.name, section.entries.map { ($0.key, $0.value) })
        }
    }

    /// A value as the notice shows it: `none` for an empty one, quoted when it has spaces.
    private static func shown(_ value: String) -> String {
        if value.isEmpty { return "none" }
        return value.contains(" ") ? "\"\(value)\"" : value
    }
}
