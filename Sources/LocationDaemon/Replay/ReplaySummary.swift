import LocationCore

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
    /// The parser's counts: sentences, bad checksums, epochs, usable fixes…
    public var statistics: NMEAStatistics
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

    /// The summary for people, one fact per line.
    public var text: String {
        let s = statistics
        var lines: [String] = []
        let names = inputs.map { $0 == "-" ? "standard input" : $0 }.joined(separator: ", ")
        lines.append("replayed \(names): \(Self.size(bytes))")
        // Each sentence is counted once, by what became of it, so the parts add up to the
        // total; fragments never became sentences and are counted apart.
        let unreadable = s.unreadableTimes > 0 ? " (\(s.unreadableTimes) with an unreadable time)" : ""
        lines.append(
            "sentences: \(s.sentences) = used \(s.used)\(unreadable) + not used \(s.ignored) "
                + "+ late or repeated \(s.lateSentences) + bad checksums \(s.badChecksums) + malformed \(s.malformed)")
        lines.append("fragments (not sentences, dropped): \(s.fragments)")
        lines.append("epochs: \(s.epochs), usable fixes \(s.usableFixes), dropped without a date \(s.undatedEpochs)")
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
