import LocationCore

/// `summary LOG… [--gap S]` and `plot LOG… -o FILE [--gap S]`.
extension CommandParser {
    /// The gap threshold `summary` and `plot` use without `--gap`.
    static let trackGap: Double = 10

    func trackAction() -> Result<CtlInvocation.Action, UsageError> {
        guard !positionals.isEmpty else { return fail("missing LOG") }
        if positionals.contains(where: \.isEmpty) { return fail("LOG must not be empty") }
        if positionals.filter({ $0 == "-" }).count > 1 { return fail("standard input (-) can be read only once") }
        var gap = Self.trackGap
        if let text = option("--gap") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                return fail("--gap must be a number of seconds above 0, not \"\(text)\"")
            }
            gap = seconds
        }
        let output = option("--output")
        if command == "plot" {
            guard let output else { return fail("missing -o FILE (the SVG to write)") }
            if output.isEmpty { return fail("-o needs a file name") }
            return .success(.plot(CtlInvocation.TrackLogs(logs: positionals, gap: gap, output: output)))
        }
        return .success(.summary(CtlInvocation.TrackLogs(logs: positionals, gap: gap)))
    }
}

extension CtlInvocation {
    /// `summary LOG… [--gap S]`, `plot LOG… -o FILE [--gap S]`: logs read as one track.
    public struct TrackLogs: Sendable, Hashable {
        /// The logs to read (a log and its rotated files, in any order); `-` is standard input.
        public var logs: [String]
        /// Seconds between two records that make a gap (default 10).
        public var gap: Double
        /// The file to write (`plot`); `-` is standard output.
        public var output: String?

        /// Options from their parts.
        public init(logs: [String], gap: Double = 10, output: String? = nil) {
            self.logs = logs
            self.gap = gap
            self.output = output
        }
    }
}
