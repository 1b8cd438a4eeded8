import LocationProtocol

/// A parsed `locationctl` command line: what to do, and how to talk and print.
public struct CtlInvocation: Sendable, Hashable {
    /// The control socket: `--socket`, else `$LOCATIOND_SOCKET`, else `/run/locationd/control.sock`.
    public var socketPath: String
    /// `--json`: print replies and events as JSON lines instead of text.
    public var json: Bool
    /// What to do.
    public var action: Action

    /// What `locationctl` does.
    public enum Action: Sendable, Hashable {
        /// Print help (the overview for `nil`, else one command's) on stdout, exit 0.
        case help(command: String?)
        /// Print the version, exit 0.
        case version
        /// Print the shell's completion script (`--generate-completion-script`), exit 0.
        case completionScript(CompletionScript.Shell)
        /// Send one request to the daemon and print the reply (for `watch`, then the events).
        case request(ControlRequest.Operation)
        /// `session CLIENT -- COMMAND…`: hold the client's session while COMMAND runs.
        case session(client: String, command: [String])
        /// `watch CLIENT --in-use`: hold the client's session while the watch runs.
        case watchInUse(client: String)
        /// `status --sky`: ask for the status and print each receiver's satellites.
        case statusSky(client: String?)
        /// Print (and with `follow`, keep printing) a client's coordinate log.
        case tail(Tail)
        /// Convert a coordinate log to another format.
        case export(Export)
        /// Summarise coordinate logs as one track (`summary`).
        case summary(TrackLogs)
        /// Draw coordinate logs as one track in an SVG file (`plot`).
        case plot(TrackLogs)
    }

    /// `tail [CLIENT|FILE] [-n N] [-f]`.
    public struct Tail: Sendable, Hashable {
        /// Whose log.
        public var target: Target
        /// How many of the last records to print first.
        public var lines: Int
        /// Keep printing records as they are appended (and across log rotation).
        public var follow: Bool

        /// Where the records come from.
        public enum Target: Sendable, Hashable {
            /// A client's log, found through the daemon's `hello` reply; `nil`: the first client.
            case client(String?)
            /// A log file named directly (an argument with a `/` in it, or ending in `.jsonl`).
            case file(String)
        }

        /// Options from their parts.
        public init(target: Target, lines: Int = 10, follow: Bool = false) {
            self.target = target
            self.lines = lines
            self.follow = follow
        }
    }

    /// `export LOG --format F [-o FILE] [--gap S]`.
    public struct Export: Sendable, Hashable {
        /// The log to read; `-` is standard input.
        public var log: String
        /// The output format.
        public var format: ExportFormat
        /// The file to write; `nil` is standard output.
        public var output: String?
        /// Seconds between two records that start a new track segment.
        public var gap: Double
        /// `--line`: GeoJSON as one LineString (MultiLineString) feature per track.
        public var line: Bool

        /// Options from their parts.
        public init(
            log: String, format: ExportFormat, output: String? = nil, gap: Double = TrackSegmenter.defaultGap,
            line: Bool = false
        ) {
            self.log = log
            self.format = format
            self.output = output
            self.gap = gap
            self.line = line
        }
    }

    /// An invocation from its parts.
    public init(socketPath: String = ControlProtocol.defaultSocketPath, json: Bool = false, action: Action) {
        self.socketPath = socketPath
        self.json = json
        self.action = action
    }

    /// The request to send, if the action talks to the daemon.
    public var request: ControlRequest.Operation? {
        if case .request(let operation) = action { return operation }
        return nil
    }
}
