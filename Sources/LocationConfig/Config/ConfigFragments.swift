/// A configuration read from several files: the main file and its drop-ins
/// (`locationd.conf.d/*.conf`, in lexical order), as systemd and GeoClue
/// read theirs. Each file is split into sections on its own (a section or
/// key repeated inside one file is still an error); then the files are laid
/// over one another in order: a key a later file sets replaces the earlier
/// value, a section a later file brings is added. The merged sections are
/// read once, so a drop-in may set one key of a client the main file
/// defines, and every rule that spans keys (an NMEA source needs a device,
/// two clients cannot share a log) sees the result. Every problem names the
/// file and line it comes from.
public struct ConfigFragments: Sendable, Hashable {
    /// One file: its path, as messages name it, and its text.
    public struct File: Sendable, Hashable {
        /// The path.
        public var path: String
        /// The text.
        public var text: String

        /// A file named `path` holding `text`.
        public init(path: String, text: String) {
            self.path = path
            self.text = text
        }
    }

    /// The files, main file first.
    public var files: [File]

    /// The main file, then the drop-ins in the order they apply.
    public init(_ files: [File]) {
        self.files = files
    }

    /// Lines of file `i` are numbered `i * stride + line` while merged: no
    /// file holds this many lines (a configuration is at most 1 MiB).
    static let stride = 1 << 24

    /// The sections every file contributes, laid over one another, with the
    /// problems each file has on its own.
    func merged(homeSection: (String) -> String?) -> INIParser.Document {
        var sections: [INIParser.Section] = []
        var index: [String: Int] = [:]
        var errors: [ConfigError] = []
        for (number, file) in files.enumerated() {
            let document = INIParser.parse(file.text, file: file.path, homeSection: homeSection)
            errors += document.errors
            let base = number * Self.stride
            for section in document.sections {
                let entries = section.entries.map { INIParser.Entry(key: $0.key, value: $0.value, line: base + $0.line) }
                guard let at = index[section.name] else {
                    index[section.name] = sections.count
                    sections.append(INIParser.Section(name: section.name, line: base + section.line, entries: entries))
                    continue
                }
                for entry in entries {
                    if let existing = sections[at].entries.firstIndex(where: { $0.key == entry.key }) {
                        sections[at].entries[existing] = entry
                    } else {
                        sections[at].entries.append(entry)
                    }
                }
            }
        }
        return INIParser.Document(sections: sections, errors: errors)
    }

    /// `error` as merged reading found it, put back at its own file and line.
    func located(_ error: ConfigError) -> ConfigError {
        guard let line = error.line, line >= Self.stride else { return error }
        var located = error
        let number = line / Self.stride
        guard number < files.count else { return error }
        located.file = files[number].path
        located.line = line % Self.stride
        return located
    }

    /// Where `error` sorts: by file, then line.
    func order(_ error: ConfigError) -> (Int, Int) {
        (files.firstIndex { $0.path == error.file } ?? 0, error.line ?? 0)
    }
}
