import LocationValues

/// The actions of the commands that read logs: `tail`, `export`, `summary`, `plot`.
extension CommandParser {
    /// The gap threshold `summary` and `plot` use without `--gap`.
    static let trackGap: Double = 10

    /// `tail [CLIENT|FILE] [-n N] [-f]`.
    func tailAction() -> Result<CtlInvocation.Action, UsageError> {
        expect(["CLIENT"], optional: 1).flatMap { args in
            var lines = 10
            if let text = option("--lines") {
                guard let n = Int(text), n >= 0 else {
                    return fail("-n must be a whole number of records, 0 or more, not \"\(text)\"")
                }
                lines = n
            }
            let target: CtlInvocation.Tail.Target
            if let arg = args.first, arg.contains("/") || arg.hasSuffix(".jsonl") || arg == "-" {
                target = .file(arg)
            } else {
                target = .client(args.first)
            }
            return .success(.tail(CtlInvocation.Tail(target: target, lines: lines, follow: flag("--follow"))))
        }
    }

    /// `export LOG --format F [-o FILE] [--gap S] [--line]`.
    func exportAction() -> Result<CtlInvocation.Action, UsageError> {
        expect(["LOG"]).flatMap { args in
            let output = option("--output")
            if let output, output.isEmpty { return fail("-o needs a file name") }
            let formats = ExportFormat.allCases.map(\.rawValue)
            let format: ExportFormat
            if let text = option("--format") {
                switch word(text.lowercased(), "format", formats, { ExportFormat(rawValue: $0) }) {
                case .success(let f): format = f
                case .failure(let e): return .failure(e)
                }
            } else if let output, let inferred = ExportFormat(fileName: output) {
                format = inferred
            } else {
                return fail("missing --format (gpx, geojson, kml or csv)")
            }
            var gap = TrackSegmenter.defaultGap
            if let text = option("--gap") {
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    return fail("--gap must be a number of seconds above 0, not \"\(text)\"")
                }
                gap = seconds
            }
            if flag("--line") && format != .geojson {
                return fail("--line is for --format geojson (GPX and KML already write tracks)")
            }
            return .success(
                .export(
                    CtlInvocation.Export(log: args[0], format: format, output: output, gap: gap, line: flag("--line"))))
        }
    }

    /// `summary LOG… [--gap S] [--reference R]` and `plot LOG… -o FILE [--gap S] [--reference R]`.
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
        var reference: SurveyReference?
        if let text = option("--reference") {
            switch SurveyReference.parse(text) {
            case .success(let r): reference = r
            case .failure(let e): return fail(e.message)
            }
        }
        let output = option("--output")
        if command == "plot" {
            guard let output else { return fail("missing -o FILE (the SVG to write)") }
            if output.isEmpty { return fail("-o needs a file name") }
            return .success(.plot(CtlInvocation.TrackLogs(logs: positionals, gap: gap, output: output, reference: reference)))
        }
        return .success(.summary(CtlInvocation.TrackLogs(logs: positionals, gap: gap, reference: reference)))
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
        /// `--reference`: measure each receiver's fixes against a mark or its mean.
        public var reference: SurveyReference?

        /// Options from their parts.
        public init(logs: [String], gap: Double = 10, output: String? = nil, reference: SurveyReference? = nil) {
            self.logs = logs
            self.gap = gap
            self.output = output
            self.reference = reference
        }
    }
}
