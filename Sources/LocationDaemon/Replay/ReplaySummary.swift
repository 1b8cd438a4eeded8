import LocationCodecs
import LocationCore
import LocationValues

/// What a replay read and did, printed at its end.
public struct ReplaySummary: Sendable {
    /// One client's result.
    public struct Client: Sendable, Hashable {
        /// The client.
        public var name: String
        /// Fixes delivered to it.
        public var delivered: Int
        /// Its log, if it has one.
        public var log: String?
    }

    /// The input files (`-`: standard input), in the order given.
    public var inputs: [String]
    /// Bytes read.
    public var bytes: Int
    /// Each input's format and counts, in the order given.
    public var files: [File]
    /// Time of the first epoch (UTC seconds), if any.
    public var firstFixTime: Double?
    /// Time of the last epoch, if any.
    public var lastFixTime: Double?
    /// Per client, in config order.
    public var clients: [Client]
    /// Events applied (accepted by the engine, changed or not).
    public var eventsApplied: Int
    /// Events the engine refused.
    public var eventsRefused: Int
    /// Errors, prompts and authorization changes carried out.
    public var tally: EffectCarrier.Tally
    /// Wall time the replay took, in seconds (not part of any log).
    public var seconds: Double

    /// One input: what it was and what was read of it.
    public struct File: Sendable, Hashable {
        /// The path as given (`-`: standard input).
        public var path: String
        /// NMEA or gpsd JSON, as its first lines told.
        public var format: ReplayFormat
        /// Bytes read.
        public var bytes: Int
        /// The NMEA parser's counts (zero for a gpsd log).
        public var nmea: NMEAStatistics
        /// The gpsd log parser's counts (zero for an NMEA file).
        public var gpsd: GPSDLogStatistics
        /// Time tags of a raw capture (`FILE.tag` beside it) the bytes were read with; 0 without.
        public var taggedChunks = 0
        /// Why the tag file was not read, or not to its end (the bytes were read all the same).
        public var tagProblem: String?
    }

    /// The NMEA files' counts together: sentences, bad checksums, epochs, usable fixes…
    public var statistics: NMEAStatistics {
        files.filter { $0.format == .nmea }.map(\.nmea).reduce(NMEAStatistics(), +)
    }

    /// The gpsd logs' counts together: lines by class, TPVs, epochs per receiver…
    public var gpsd: GPSDLogStatistics {
        files.filter { $0.format == .gpsdJSON }.map(\.gpsd).reduce(GPSDLogStatistics(), +)
    }

    /// The summary for people, one fact per line.
    public var text: String {
        var lines: [String] = []
        let names = inputs.map(Self.name).joined(separator: ", ")
        lines.append("replayed \(names): \(Self.size(bytes))")
        let formats = Set(files.map(\.format))
        if formats.contains(.nmea) { lines += nmeaLines(labelled: formats.count > 1) }
        if formats.contains(.gpsdJSON) { lines += Self.gpsdLines(gpsd) }
        if files.count > 1 {
            for file in files { lines.append("  " + Self.fileLine(file)) }
        }
        for file in files where file.taggedChunks > 0 || file.tagProblem != nil {
            let problem = file.tagProblem.map { "; \($0)" } ?? ""
            lines.append("\(Self.name(file.path)): \(file.taggedChunks) chunks read at their time tags\(problem)")
        }
        if let first = firstFixTime, let last = lastFixTime {
            lines.append("time span: \(UTCTime.format(first)) to \(UTCTime.format(last)) (\(Self.duration(last - first)))")
        } else {
            lines.append("time span: no epochs")
        }
        if eventsApplied + eventsRefused > 0 {
            lines.append("events: \(eventsApplied) applied, \(eventsRefused) refused")
        }
        for client in clients {
            let log = client.log.map { " -> \($0)" } ?? " (no log)"
            lines.append("\(client.name): \(client.delivered) fix\(client.delivered == 1 ? "" : "es") delivered\(log)")
        }
        let errors = tally.errors.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        if !errors.isEmpty { lines.append("client errors: \(errors.joined(separator: ", "))") }
        if tally.promptsOpened > 0 { lines.append("prompts opened: \(tally.promptsOpened)") }
        let rate = seconds > 0 ? Double(bytes) / seconds / 1e6 : 0
        lines.append("took \(Self.decimal(seconds, 3)) s (\(Self.decimal(rate, 1)) MB/s)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The NMEA files' lines: each sentence counted once, by what became of it, so the parts add up to the
    /// total; fragments never became sentences and are counted apart.
    private func nmeaLines(labelled: Bool) -> [String] {
        let s = statistics
        let unreadable = s.unreadableTimes > 0 ? " (\(s.unreadableTimes) with an unreadable time)" : ""
        return [
            "sentences: \(s.sentences) = used \(s.used)\(unreadable) + not used \(s.ignored) "
                + "+ late or repeated \(s.lateSentences) + bad checksums \(s.badChecksums) + malformed \(s.malformed)",
            "fragments (not sentences, dropped): \(s.fragments)",
            "\(labelled ? "NMEA " : "")epochs: \(s.epochs), usable fixes \(s.usableFixes), dropped without a date \(s.undatedEpochs)",
        ]
    }

    /// The gpsd logs' lines: each line counted once, by what it was; then what became of the TPVs.
    static func gpsdLines(_ g: GPSDLogStatistics) -> [String] {
        var lines = [
            "gpsd lines: \(g.lines) = TPV \(g.tpv) + SKY \(g.sky) + other classes \(g.otherClasses) + NMEA \(g.nmea) "
                + "+ comments \(g.comments) + blank \(g.blank) + unreadable \(g.unreadable) + cut off at the end \(g.cutOff)"
        ]
        if !g.classes.isEmpty {
            lines.append("other classes (not used): " + g.classes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", "))
        }
        lines.append(
            "TPVs: \(g.tpv), out of range \(g.outOfRange), without a time \(g.timeless), late or repeated \(g.late)")
        lines.append("gpsd epochs: \(g.epochs)\(receivers(g)), usable fixes \(g.usableFixes)")
        return lines
    }

    /// One input's line in a replay of several.
    static func fileLine(_ file: File) -> String {
        let head = "\(name(file.path)): \(file.format.rawValue), \(size(file.bytes))"
        switch file.format {
        case .nmea:
            let s = file.nmea
            return head + ", \(s.sentences) sentences, \(s.epochs) epochs, \(s.usableFixes) usable fixes"
        case .gpsdJSON:
            let g = file.gpsd
            return head + ", \(g.lines) lines (\(g.unreadable + g.cutOff) unreadable), "
                + "\(g.epochs) epochs\(receivers(g)), \(g.usableFixes) usable fixes"
        }
    }

    /// ` (DEVICE N, …)`: the epochs per receiver, when there are any.
    private static func receivers(_ g: GPSDLogStatistics) -> String {
        guard !g.receivers.isEmpty else { return "" }
        return " (" + g.receivers.map { "\($0.device.isEmpty ? "unnamed" : $0.device) \($0.epochs)" }
            .joined(separator: ", ") + ")"
    }

    static func name(_ path: String) -> String { path == "-" ? "standard input" : path }

    static func size(_ bytes: Int) -> String {
        if bytes < 10_000 { return "\(bytes) bytes" }
        if bytes < 10_000_000 { return "\(bytes / 1000) kB" }
        return "\(decimal(Double(bytes) / 1e6, 1)) MB"
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole / 60 % 60) min"
    }

    static func decimal(_ value: Double, _ digits: Int) -> String {
        FixedDecimal.format(value, decimals: digits) ?? "0"
    }
}
