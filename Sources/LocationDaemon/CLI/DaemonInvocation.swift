import LocationCore

/// A parsed `locationd` command line (docs/design.md §4).
public enum DaemonInvocation: Sendable, Hashable {
    /// `locationd run [--config PATH]`: the daemon, in the foreground.
    case run(config: String)
    /// `locationd replay FILE… …`: feed recorded NMEA files through the engine.
    case replay(Replay)
    /// `locationd check-config [--config PATH]`: validate and print the effective configuration.
    case checkConfig(config: String)
    /// Print help (the overview for `nil`, else one subcommand's), exit 0.
    case help(command: String?)
    /// Print the version, exit 0.
    case version

    /// `replay FILE... [--config PATH] [--events FILE] [--log-dir DIR] [--state FILE]`.
    public struct Replay: Sendable, Hashable {
        /// The recorded NMEA files, each its own receiver (`-` for standard input), at least one.
        public var inputs: [String]
        /// The config file.
        public var config: String
        /// Control requests with `at` times to apply during the replay.
        public var events: String?
        /// Where every client's log goes instead of the configured `log_dir`.
        public var logDirectory: String?
        /// A state file to start from instead of the config's initial values (never written).
        public var state: String?

        /// Options from their parts.
        public init(inputs: [String], config: String, events: String? = nil, logDirectory: String? = nil, state: String? = nil) {
            self.inputs = inputs
            self.config = config
            self.events = events
            self.logDirectory = logDirectory
            self.state = state
        }
    }
}
