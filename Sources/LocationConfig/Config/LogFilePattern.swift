import LocationValues

/// A client's file names and where they are cut: the `log` (or `raw_log`) path with strftime
/// fields for the time of the lines in the file, `%r` for the receiver's name, and the `split`
/// that says when a new file starts (locationd.conf(5)). Pure: the writers ask it, for each
/// line's own time, which file the line belongs to.
///
/// Fields: `%Y` (2026), `%y` (26), `%m`, `%d`, `%H`, `%M`, `%S` (two digits), `%j` (day of the
/// year, three digits), `%r` (the receiver), `%%` (a `%`). Times are UTC.
public struct LogFilePattern: Sendable, Hashable {
    /// The pattern, as resolved against `log_dir` (a `%` in the directory written `%%`).
    public let text: String
    /// When files are cut; nil: one file (its name from the pattern at the first line's time).
    public let split: LogSplit?

    /// Where a line goes: the file's path and, for a clock cut, the period it holds.
    public struct File: Sendable, Hashable {
        /// The file's path.
        public var path: String
        /// The pattern's expansion before a size cut's number (`path` without `.N`).
        public var base: String
        /// The size cut's number (0: none).
        public var number: Int
        /// The UTC period a clock cut's file holds; nil for a size cut or none.
        public var period: Range<Double>?
    }

    /// The time fields and what each stands for.
    public static let timeFields: Set<Character> = ["Y", "y", "m", "d", "H", "M", "S", "j"]

    /// A pattern with its cut.
    public init(_ text: String, split: LogSplit?) {
        self.text = text
        self.split = split
    }

    /// What is wrong with `text` as a pattern (an unknown field, or a `%` at its end), or nil.
    public static func problem(in text: String) -> String? {
        var characters = text.makeIterator()
        while let c = characters.next() {
            guard c == "%" else { continue }
            guard let field = characters.next() else { return "a % at the end (write %% for a %)" }
            guard field == "%" || field == "r" || timeFields.contains(field) else {
                return "%\(field) is no field here (the fields are %Y %y %m %d %H %M %S %j, %r and %%)"
            }
        }
        return nil
    }

    /// Whether the pattern has a time field.
    public var hasTimeFields: Bool { fields.contains { Self.timeFields.contains($0) } }

    /// Whether the pattern has `%r`.
    public var hasReceiverField: Bool { fields.contains("r") }

    private var fields: [Character] {
        var found: [Character] = []
        var characters = text.makeIterator()
        while let c = characters.next() {
            guard c == "%", let field = characters.next() else { continue }
            found.append(field)
        }
        return found
    }

    /// Whether every period of a clock cut gets a file of its own: a period's name differs from
    /// the next period's, and from those of the same time a day, a month and a year later
    /// (checked around new year, a month's start and within a day). Always true for a size cut
    /// or none.
    public var separatesPeriods: Bool {
        guard let split, split.isTimed else { return true }
        let samples = [
            UTCTime.seconds(year: 2025, month: 12, day: 31, hour: 23, minute: 30, second: 0),
            UTCTime.seconds(year: 2026, month: 2, day: 28, hour: 23, minute: 59, second: 59),
            UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 12, minute: 34, second: 0),
        ]
        for time in samples {
            guard let period = split.period(containing: time) else { continue }
            let name = expand(at: period.lowerBound, receiver: "r")
            for later in [period.upperBound, period.lowerBound + 86_400, period.lowerBound + 31 * 86_400,
                          period.lowerBound + 365 * 86_400, period.lowerBound + 366 * 86_400]
            where later >= period.upperBound {
                if expand(at: later, receiver: "r") == name { return false }
            }
        }
        return true
    }

    /// The pattern with its fields filled in for `time` (UTC seconds) and `receiver` (its last
    /// path component: `/dev/ttyUSB0` is `ttyUSB0`).
    public func expand(at time: Double, receiver: String? = nil) -> String {
        guard text.contains("%") else { return text }
        let whole = time.isFinite ? time.rounded(.down) : 0
        let days = Int((whole / 86_400).rounded(.down))
        let seconds = Int(whole - Double(days) * 86_400)
        let date = UTCTime.civil(days: days)
        var out = ""
        var characters = text.makeIterator()
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        while let c = characters.next() {
            guard c == "%", let field = characters.next() else {
                out.append(c)
                continue
            }
            switch field {
            case "Y": out += String(date.year)
            case "y": out += two(((date.year % 100) + 100) % 100)
            case "m": out += two(date.month)
            case "d": out += two(date.day)
            case "H": out += two(seconds / 3600)
            case "M": out += two(seconds / 60 % 60)
            case "S": out += two(seconds % 60)
            case "j":
                let yearDay = days - UTCTime.days(year: date.year, month: 1, day: 1) + 1
                out += yearDay < 10 ? "00\(yearDay)" : yearDay < 100 ? "0\(yearDay)" : String(yearDay)
            case "r": out += Self.receiverName(receiver)
            case "%": out += "%"
            default: out += "%\(field)"
            }
        }
        return out
    }

    /// A receiver as a file name part: its device path's last component, or `receiver` when none.
    public static func receiverName(_ receiver: String?) -> String {
        let last = receiver?.split(separator: "/").last.map(String.init) ?? ""
        let safe = last.map { c -> Character in
            c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".") ? c : "_"
        }
        let name = String(safe)
        return name.isEmpty || name == "." || name == ".." ? "receiver" : name
    }

    /// The file a line of `time` goes to when none is open (or the open one is `current` and the
    /// line cannot go on in it): a clock cut's file is the pattern at its period's start; a size
    /// cut's the pattern at the line's time, numbered after `current` when that was the same
    /// name and is full.
    public func file(for time: Double, receiver: String? = nil, after current: File? = nil) -> File {
        guard let split, let period = split.period(containing: time) else {
            let base = expand(at: time, receiver: receiver)
            let number = current.map { $0.base == base ? $0.number + 1 : 0 } ?? 0
            return File(path: Self.numbered(base, number), base: base, number: number, period: nil)
        }
        let path = expand(at: period.lowerBound, receiver: receiver)
        return File(path: path, base: path, number: 0, period: period)
    }

    /// Whether a line of `time` and `bytes` bytes cannot go on in `current`, which holds
    /// `fileBytes` already: its time is outside the file's period (later — or earlier, when the
    /// receiver's time went back: the line goes to the file of its own time), or, for a size
    /// cut, the file would grow past the size or the pattern names another file at that time.
    public func needsCut(_ current: File, time: Double, receiver: String? = nil, fileBytes: Int64 = 0, bytes: Int = 0) -> Bool {
        if let period = current.period { return !period.contains(time) }
        guard case .size(let limit) = split else { return false }
        if fileBytes > 0 && fileBytes + Int64(bytes) > limit { return true }
        return hasTimeFields && current.base != expand(at: time, receiver: receiver)
    }

    /// `path` with a size cut's number before its extension: `a/log-20260314.2.jsonl`; `path` for 0.
    public static func numbered(_ path: String, _ number: Int) -> String {
        guard number > 0 else { return path }
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(path[..<dot]) + ".\(number)" + String(path[dot...])
        }
        return path + ".\(number)"
    }
}
