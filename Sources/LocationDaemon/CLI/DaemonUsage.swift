import LocationCore

/// `locationd`'s help texts.
public enum DaemonUsage {
    /// The config file used when neither `--config` nor `$LOCATIOND_CONFIG` names one.
    public static let defaultConfigPath = "/etc/locationd/locationd.conf"
    /// The environment variable that overrides the default config path.
    public static let configEnvironmentVariable = "LOCATIOND_CONFIG"

    /// Subcommand words, synopses and help bodies.
    public static let pages: [(name: String, synopsis: String, details: String)] = [
        (
            "run", "run [--config PATH]",
            """
            Runs the daemon in the foreground, as systemd's Type=notify service: reads fixes from
            the configured source, applies every client's authorization, writes the coordinate logs
            and serves the control socket. SIGTERM stops it cleanly; SIGHUP reopens the logs and
            re-reads the config (keeping the old one if the new one has errors).

            Options:
              --config PATH   config file (default $LOCATIOND_CONFIG, else \(defaultConfigPath))
            """
        ),
        (
            "replay", "replay FILE... [--config PATH] [--events FILE] [--log-dir DIR] [--state FILE]",
            """
            Feeds recorded NMEA files and gpsd JSON logs (gpspipe -w; - for standard input) through
            the same engine as fast as they can be read, with the fixes' own times as the clock,
            writes the configured clients' logs and prints a summary: sentences or lines, bad
            checksums and unreadable lines, fixes, and deliveries per client. Each file's first lines
            tell its format. An NMEA file is its own receiver, named by its path; a gpsd log's
            receivers are the devices its TPVs name. Several files are interleaved by time and the
            clients follow the best receiver as the daemon does. It never touches the daemon's own
            state.

            Options:
              --config PATH   config file (default $LOCATIOND_CONFIG, else \(defaultConfigPath))
              --events FILE   control requests with "at" times, one JSON object per line
              --log-dir DIR   write every client's log in DIR instead of the configured log_dir
              --state FILE    start from this saved state instead of the config's initial values
            """
        ),
        (
            "check-config", "check-config [--config PATH]",
            """
            Validates the config file and prints the effective configuration. Errors name the
            file, the line and the accepted values; the exit status is 78 if there are any.

            Options:
              --config PATH   config file (default $LOCATIOND_CONFIG, else \(defaultConfigPath))
            """
        ),
    ]

    /// The overview: `locationd --help`.
    public static var overview: String {
        var lines = ["usage: locationd COMMAND [OPTIONS]", "", "Commands:"]
        for page in pages { lines.append("  " + page.synopsis) }
        lines.append("")
        lines.append("Options: -h, --help (also after a command), --version")
        lines.append("Exit status: 0 done; 1 refused (unreadable input, a log or socket); 2 usage error; 78 bad config.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help for a subcommand, or the overview.
    public static func help(for command: String?) -> String {
        guard let command, let page = pages.first(where: { $0.name == command }) else { return overview }
        return "usage: locationd \(page.synopsis)\n\n\(page.details)\n"
    }
}
