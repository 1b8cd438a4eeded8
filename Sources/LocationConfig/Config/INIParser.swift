/// Splits INI text into sections and `key = value` entries, with line numbers
/// (the dialect of locationd.conf(5)). It knows nothing about locationd's keys;
/// `DaemonConfig` gives the entries meaning.
///
/// The dialect:
/// * `[name]` starts a section; whitespace inside the brackets is trimmed.
/// * `key = value`; keys are letters, digits, `_`, `.` and `-`.
/// * A line whose first non-blank character is `#` or `;` is a comment.
/// * After a value (or a section header), `#` starts a comment when it is
///   preceded by whitespace or is the first character of the value, so
///   `port = 2947   # gpsd's port` is `2947`, and `usage = Track#1` keeps its `#`.
/// * A value in double quotes is taken literally (with `\"` for `"` and
///   `\\` for `\`): the way to write a ` #`, leading or trailing spaces.
/// * Whitespace around keys and values is trimmed; an empty value is allowed
///   (the key decides whether empty means "none").
/// * CRLF line ends and a leading UTF-8 byte-order mark are accepted.
///
/// Problems are collected, not thrown at the first: the parser carries on
/// after a bad line so that every problem is reported at once.
public enum INIParser {
    /// One `key = value` line.
    public struct Entry: Sendable, Hashable {
        /// The key, trimmed.
        public var key: String
        /// The value, trimmed, unquoted, without its trailing comment.
        public var value: String
        /// The 1-based line.
        public var line: Int
    }

    /// One `[name]` section with its entries in file order.
    public struct Section: Sendable, Hashable {
        /// The name inside the brackets, trimmed.
        public var name: String
        /// The 1-based line of the header.
        public var line: Int
        /// The entries, in file order, without duplicates.
        public var entries: [Entry]
    }

    /// The sections in file order and every problem found.
    public struct Document: Sendable, Hashable {
        /// The sections in file order; a repeated section is reported and left out.
        public var sections: [Section]
        /// Syntax problems, duplicates and keys outside a section, in line order.
        public var errors: [ConfigError]
    }

    /// Parses `text`; `file` names it in error messages. `homeSection`
    /// suggests where a key found before any header belongs.
    public static func parse(_ text: String, file: String, homeSection: (String) -> String? = { _ in nil }) -> Document {
        var sections: [Section] = []
        var errors: [ConfigError] = []
        var firstLineOfSection: [String: Int] = [:]
        var current: Section?
        var skipping = false  // inside a repeated section: its entries are not taken
        var keyLines: [String: Int] = [:]

        func finishSection() {
            if let section = current { sections.append(section) }
            current = nil
        }

        var lineNumber = 0
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var start = 0
        while start <= bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = String(decoding: bytes[start..<lineEnd], as: UTF8.self)
            start = end + 1
            if end == bytes.count && line.isEmpty { break }

            let content = trimmed(Substring(line))
            if content.isEmpty || content.first == "#" || content.first == ";" { continue }

            if content.first == "[" {
                finishSection()
                guard let header = parseHeader(content) else {
                    errors.append(.syntax(
                        file: file, line: lineNumber,
                        detail: "\(ConfigError.quoted(String(content))) is not a section header: write [name] on a line of its own"))
                    skipping = true
                    continue
                }
                if let first = firstLineOfSection[header] {
                    errors.append(.duplicateSection(file: file, line: lineNumber, section: header, firstLine: first))
                    skipping = true
                    continue
                }
                firstLineOfSection[header] = lineNumber
                current = Section(name: header, line: lineNumber, entries: [])
                skipping = false
                keyLines = [:]
                continue
            }

            guard let equals = content.firstIndex(of: "=") else {
                errors.append(.syntax(
                    file: file, line: lineNumber, section: current?.name,
                    detail: "\(ConfigError.quoted(String(content))) is not key = value, a [section] header or a # comment"))
                continue
            }
            let key = String(trimmed(content[..<equals]))
            guard isKey(key) else {
                let shown = key.isEmpty ? "a line starting with =" : "key \(ConfigError.quoted(key))"
                errors.append(.syntax(
                    file: file, line: lineNumber, section: current?.name,
                    detail: "\(shown) is not a valid key: keys are letters, digits, _, . and -"))
                continue
            }
            let value: String
            switch parseValue(content[content.index(after: equals)...]) {
            case .success(let v): value = v
            case .failure(let problem):
                errors.append(.syntax(
                    file: file, line: lineNumber, section: current?.name,
                    detail: "\(current.map { "[\($0.name)] " } ?? "")\(key): \(problem.message)"))
                continue
            }
            guard current != nil || skipping else {
                if !skipping {
                    errors.append(.keyOutsideSection(file: file, line: lineNumber, key: key, home: homeSection(key)))
                }
                continue
            }
            if skipping { continue }
            if let first = keyLines[key], let name = current?.name {
                errors.append(.duplicateKey(file: file, line: lineNumber, section: name, key: key, firstLine: first))
                continue
            }
            keyLines[key] = lineNumber
            current?.entries.append(Entry(key: key, value: value, line: lineNumber))
        }
        finishSection()
        return Document(sections: sections, errors: errors)
    }

    /// Whether `value` has a blank followed by `#`, where an inline comment
    /// would begin. A plain byte scan: `String.contains(String)` would link
    /// the regex modules (0.9 MB of code) into every executable.
    private static func startsAComment(_ value: String) -> Bool {
        var afterBlank = false
        for byte in value.utf8 {
            if byte == UInt8(ascii: "#") && afterBlank { return true }
            afterBlank = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
        }
        return false
    }

    /// `value` as it must be written after `key = ` to parse back to itself:
    /// bare when it can be, otherwise in double quotes.
    public static func quote(_ value: String) -> String {
        let needsQuotes =
            value.first == "\"" || value.first == "#" || value.first == ";"
            || value.first.map(isBlank) == true || value.last.map(isBlank) == true
            || startsAComment(value)
            || value.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
        guard needsQuotes else { return value }
        var out = "\""
        for ch in value {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.append(ch)
            }
        }
        return out + "\""
    }

    // MARK: - Pieces of a line

    private struct ValueProblem: Error {
        var message: String
    }

    private static func parseHeader(_ content: Substring) -> String? {
        guard let close = content.firstIndex(of: "]") else { return nil }
        let rest = trimmed(content[content.index(after: close)...])
        guard rest.isEmpty || rest.first == "#" || rest.first == ";" else { return nil }
        let name = trimmed(content[content.index(after: content.startIndex)..<close])
        return name.isEmpty ? nil : String(name)
    }

    private static func parseValue(_ raw: Substring) -> Result<String, ValueProblem> {
        let text = trimmedLeading(raw)
        guard let first = text.first else { return .success("") }
        if first == "#" { return .success("") }
        if first == "\"" { return parseQuoted(text) }
        // A # after whitespace starts a comment.
        var end = text.endIndex
        var previous: Character = first
        var i = text.index(after: text.startIndex)
        while i < text.endIndex {
            let ch = text[i]
            if ch == "#" && isBlank(previous) {
                end = i
                break
            }
            previous = ch
            i = text.index(after: i)
        }
        return .success(String(trimmed(text[..<end])))
    }

    private static func parseQuoted(_ text: Substring) -> Result<String, ValueProblem> {
        var out = ""
        var i = text.index(after: text.startIndex)
        while i < text.endIndex {
            let ch = text[i]
            if ch == "\"" {
                let rest = trimmed(text[text.index(after: i)...])
                guard rest.isEmpty || rest.first == "#" else {
                    return .failure(ValueProblem(
                        message: "text after the closing quote (\(ConfigError.quoted(String(rest)))): put the whole value inside the quotes"))
                }
                return .success(out)
            }
            if ch == "\\" {
                let next = text.index(after: i)
                guard next < text.endIndex, text[next] == "\"" || text[next] == "\\" else {
                    return .failure(ValueProblem(
                        message: "unknown escape in a quoted value: inside quotes write \\\" for \" and \\\\ for \\"))
                }
                out.append(text[next])
                i = text.index(after: next)
                continue
            }
            out.append(ch)
            i = text.index(after: i)
        }
        return .failure(ValueProblem(message: "the quoted value has no closing \": end it with \" on the same line"))
    }

    private static func isKey(_ key: String) -> Bool {
        !key.isEmpty && key.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_" || s == "." || s == "-"
        }
    }

    private static func isBlank(_ ch: Character) -> Bool { ch == " " || ch == "\t" }

    static func trimmed(_ text: Substring) -> Substring {
        trimmedTrailing(trimmedLeading(text))
    }

    private static func trimmedLeading(_ text: Substring) -> Substring {
        var s = text
        while let f = s.first, isBlank(f) { s = s.dropFirst() }
        return s
    }

    private static func trimmedTrailing(_ text: Substring) -> Substring {
        var s = text
        while let l = s.last, isBlank(l) { s = s.dropLast() }
        return s
    }
}
