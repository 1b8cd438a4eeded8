/// One problem in a configuration file: where it is (file, line, section,
/// key), the value that was refused and what would have been accepted. Its
/// description is one sentence a person can act on:
///
///     /etc/locationd/locationd.conf:14: [client.logger] desired_accuracy = "kilometre": accepted values
///     are best-for-navigation, best, ten-meters, hundred-meters, kilometer, three-kilometers, or a number of metres
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Hashable {
        /// The file could not be read (missing, a directory, not UTF-8, too large).
        case unreadable
        /// A line that is neither a section header, `key = value`, a comment nor blank.
        case syntax
        /// `key = value` before the first section header.
        case keyOutsideSection
        /// A section header the format does not know.
        case unknownSection
        /// The same section header twice.
        case duplicateSection
        /// A key its section does not know.
        case unknownKey
        /// The same key twice in one section.
        case duplicateKey
        /// A value outside the accepted values.
        case badValue
        /// A key that must be present is absent.
        case missingKey
        /// Two settings that cannot both hold (two clients sharing one log file).
        case conflict
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The file, as it was named to the parser.
    public var file: String
    /// The 1-based line, when the problem has one.
    public var line: Int?
    /// The section name without brackets (`client.logger`), when known.
    public var section: String?
    /// The key, when the problem is about one.
    public var key: String?
    /// The refused value, as written (after comment stripping and unquoting).
    public var value: String?
    /// The accepted values, for a person (`on or off`, `a number of metres, at least 200`).
    public var accepted: String?
    /// The rest of the sentence, after the location: what is wrong and what to do.
    public var detail: String

    /// An error from its parts; prefer the factory functions, which word the sentence.
    public init(
        kind: Kind, file: String, line: Int?, section: String? = nil, key: String? = nil,
        value: String? = nil, accepted: String? = nil, detail: String
    ) {
        self.kind = kind
        self.file = file
        self.line = line
        self.section = section
        self.key = key
        self.value = value
        self.accepted = accepted
        self.detail = detail
    }

    /// `FILE:LINE: detail`.
    public var description: String {
        if let line { return "\(file):\(line): \(detail)" }
        return "\(file): \(detail)"
    }

    // MARK: - Worded errors

    /// `[client.logger] desired_accuracy = "kilometre": accepted values are …`.
    public static func badValue(
        file: String, line: Int, section: String, key: String, value: String, accepted: String, note: String? = nil
    ) -> ConfigError {
        var detail = "[\(section)] \(key) = \(quoted(value)): accepted values are \(accepted)"
        if let note { detail += " (\(note))" }
        return ConfigError(
            kind: .badValue, file: file, line: line, section: section, key: key, value: value,
            accepted: accepted, detail: detail)
    }

    /// `[client.logger] unknown key "distanse_filter" (did you mean distance_filter?): accepted keys are …`.
    public static func unknownKey(file: String, line: Int, section: String, key: String, accepted: [String]) -> ConfigError {
        var detail = "[\(section)] unknown key \(quoted(key))"
        if let guess = closest(to: key, in: accepted) { detail += " (did you mean \(guess)?)" }
        let list = listed(accepted)
        detail += ": accepted keys are \(list)"
        return ConfigError(
            kind: .unknownKey, file: file, line: line, section: section, key: key, accepted: list, detail: detail)
    }

    /// `unknown section [clients.logger]: accepted sections are …`.
    public static func unknownSection(file: String, line: Int, section: String, note: String? = nil) -> ConfigError {
        let accepted = ConfigKey.Section.listed
        var detail = "unknown section [\(section)]"
        if let note { detail += " (\(note))" }
        detail += ": accepted sections are \(accepted)"
        return ConfigError(
            kind: .unknownSection, file: file, line: line, section: section, accepted: accepted, detail: detail)
    }

    /// `[client.logger] appears twice (first on line 20): merge them into one section`.
    public static func duplicateSection(file: String, line: Int, section: String, firstLine: Int) -> ConfigError {
        ConfigError(
            kind: .duplicateSection, file: file, line: line, section: section,
            detail: "[\(section)] appears twice (first on line \(firstLine)): merge them into one section")
    }

    /// `[daemon] fsync is set twice (first on line 9): keep only one`.
    public static func duplicateKey(file: String, line: Int, section: String, key: String, firstLine: Int) -> ConfigError {
        ConfigError(
            kind: .duplicateKey, file: file, line: line, section: section, key: key,
            detail: "[\(section)] \(key) is set twice (first on line \(firstLine)): keep only one")
    }

    /// `socket = … comes before any [section] header: move it under [daemon]`.
    public static func keyOutsideSection(file: String, line: Int, key: String, home: String?) -> ConfigError {
        let hint = home.map { "move it under [\($0)]" } ?? "move it under the [section] it belongs to"
        return ConfigError(
            kind: .keyOutsideSection, file: file, line: line, key: key,
            detail: "\(key) comes before any [section] header: \(hint)")
    }

    /// A malformed line; `detail` says what is wrong and how to write it.
    public static func syntax(file: String, line: Int, section: String? = nil, detail: String) -> ConfigError {
        ConfigError(kind: .syntax, file: file, line: line, section: section, detail: detail)
    }

    /// `[source] type = nmea needs device = PATH: …`.
    public static func missingKey(file: String, line: Int?, section: String, key: String, detail: String) -> ConfigError {
        ConfigError(kind: .missingKey, file: file, line: line, section: section, key: key, detail: detail)
    }

    /// Two settings that cannot both hold.
    public static func conflict(file: String, line: Int, section: String, key: String, value: String, detail: String) -> ConfigError {
        ConfigError(kind: .conflict, file: file, line: line, section: section, key: key, value: value, detail: detail)
    }

    /// The file cannot be read; `detail` says why and what to do.
    public static func unreadable(file: String, line: Int? = nil, detail: String) -> ConfigError {
        ConfigError(kind: .unreadable, file: file, line: line, detail: detail)
    }

    // MARK: - Wording helpers

    /// `"value"` with `"` and `\` escaped, as a person would retype it.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `a, b, or c`.
    static func listed(_ words: [String], conjunction: String = "or") -> String {
        switch words.count {
        case 0: return "none"
        case 1: return words[0]
        case 2: return "\(words[0]) \(conjunction) \(words[1])"
        default: return words.dropLast().joined(separator: ", ") + ", \(conjunction) " + words[words.count - 1]
        }
    }

    /// The accepted word within two edits of `word`, if exactly one is nearest.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        var best: (String, Int)?
        var tie = false
        for candidate in candidates {
            let d = editDistance(target, Array(candidate.unicodeScalars))
            guard d <= 2 else { continue }
            if let current = best {
                if d < current.1 {
                    best = (candidate, d)
                    tie = false
                } else if d == current.1 {
                    tie = true
                }
            } else {
                best = (candidate, d)
            }
        }
        return tie ? nil : best?.0
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
