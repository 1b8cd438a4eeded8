/// `locationctl`'s help texts: the overview and one page per command.
public enum CtlUsage {
    /// One command's help.
    public struct Page: Sendable, Hashable {
        /// The command word.
        public var name: String
        /// The synopsis after `locationctl`, e.g. `authorize CLIENT never|ask|while-using|always`.
        public var synopsis: String
        /// One line for the overview.
        public var summary: String
        /// The rest of the page: what it does, arguments, examples.
        public var details: String
    }

    /// The global options, as the overview and every page list them.
    public static let globalOptions = """
        Options:
          --socket PATH   control socket (default $LOCATIOND_SOCKET, else \(ControlProtocol.defaultSocketPath))
          --json          print replies and events as JSON, one object per line
          -h, --help      show help (also: locationctl help COMMAND, locationctl COMMAND --help)
          --version       print the version
        """

    /// Exit statuses, as every page lists them.
    public static let exitStatus = """
        Exit status: 0 done; 1 the daemon refused (the message says why and what to do);
        2 usage error; 3 cannot reach the daemon.
        """

    /// Every command, in the order of SPEC §5.4.
    public static let pages: [Page] = [
        Page(
            name: "status", synopsis: "status [CLIENT]",
            summary: "what the daemon sees, and why each client is or is not getting locations",
            details: """
                Shows the source (gpsd link, last fix, its age and accuracy), Location Services,
                and for each client (or only CLIENT): its effective authorization and accuracy,
                whether it is in use and updating, whether it is getting locations right now and
                why not, and the one command that would change that. Pending prompts are listed
                with every answer as a command to copy.

                Example:
                  locationctl status logger
                """),
        Page(
            name: "services", synopsis: "services on|off",
            summary: "switch Location Services for every client",
            details: """
                With services off every client is effectively 'never'; each client's own setting
                comes back unchanged when services are switched on again.

                Example:
                  locationctl services off
                """),
        Page(
            name: "authorize", synopsis: "authorize CLIENT never|ask|while-using|always",
            summary: "set a client's authorization, as the Settings app does",
            details: """
                Stores the status and clears the once and provisional flags. 'ask' makes the next
                request open a prompt again. A client locked by [policy] restricted cannot be changed
                here.

                Example:
                  locationctl authorize logger while-using
                """),
        Page(
            name: "accuracy", synopsis: "accuracy CLIENT full|reduced",
            summary: "set a client's Precise Location switch",
            details: """
                'reduced' gives the client an approximate position on a grid of about 2 km, at
                most once every 15 minutes.

                Example:
                  locationctl accuracy logger reduced
                """),
        Page(
            name: "request", synopsis: "request CLIENT while-using|always",
            summary: "ask for authorization, as an app does (opens a prompt)",
            details: """
                From 'ask' this opens a prompt; answer it with 'locationctl answer'. A permanent
                while-using client asking for always gets the upgrade prompt. The client needs
                usage (and for always, usage_always) in its config section.

                Example:
                  locationctl request logger while-using
                """),
        Page(
            name: "prompts", synopsis: "prompts",
            summary: "list pending prompts and their possible answers",
            details: """
                Example:
                  locationctl prompts
                """),
        Page(
            name: "answer", synopsis: "answer CLIENT ANSWER [--approximate]",
            summary: "answer a client's pending prompt, as the user does",
            details: """
                ANSWER depends on the prompt:
                  while-using or always prompt:  allow-once | allow-while-using | deny
                  always-upgrade prompt:         keep-while-using | change-to-always
                  full-accuracy prompt:          allow | deny
                  share prompt:                  allow | deny

                Options:
                  --approximate   turn the prompt's Precise switch off: with allow-once or
                                  allow-while-using the client gets reduced accuracy at once

                Examples:
                  locationctl answer logger allow-while-using
                  locationctl answer logger allow-once --approximate
                """),
        Page(
            name: "share", synopsis: "share CLIENT",
            summary: "the location button: allow once and put the client in use",
            details: """
                From 'ask' (or a once grant) this gives while-using for this session only and marks
                the client in use. The first time a client's button is used from 'ask' it opens a
                one-time share prompt instead ('locationctl answer CLIENT allow'); once allowed,
                later shares grant at once. A client set to never must be changed with 'authorize'.

                Example:
                  locationctl share logger
                """),
        Page(
            name: "reset", synopsis: "reset CLIENT",
            summary: "reset a client's location and privacy settings, as Settings does",
            details: """
                Puts the client back to its configured first-start status (authorization) and
                accuracy (precise), ends once, provisional and temporary grants, and forgets that
                the always-upgrade prompt and the share prompt were shown. Its reduced-accuracy
                secret is kept.

                Example:
                  locationctl reset logger
                """),
        Page(
            name: "request-full-accuracy", synopsis: "request-full-accuracy CLIENT KEY",
            summary: "ask for temporary full accuracy for a purpose (opens a prompt)",
            details: """
                KEY is a purpose key of the client's config (purpose.KEY = text). The client must
                have reduced accuracy and be in use.

                Example:
                  locationctl request-full-accuracy logger survey
                """),
        Page(
            name: "session", synopsis: "session CLIENT begin|end",
            summary: "mark a client in use (foreground) or not",
            details: """
                While-using clients get locations only while in use; an Allow Once grant ends
                once the client has been out of use for once_grace seconds.

                Example:
                  locationctl session logger end
                """),
        Page(
            name: "start", synopsis: "start CLIENT",
            summary: "start location updates for a client",
            details: """
                Example:
                  locationctl start logger
                """),
        Page(
            name: "stop", synopsis: "stop CLIENT",
            summary: "stop location updates for a client",
            details: """
                Example:
                  locationctl stop logger
                """),
        Page(
            name: "locate", synopsis: "locate CLIENT [--timeout S]",
            summary: "deliver exactly one location to a client",
            details: """
                Asks for one location, printed when it is delivered. If none arrives within S
                seconds (default: the client's locate_timeout, 30) the client gets
                location-unknown.

                Options:
                  --timeout S   seconds to wait, above 0 and at most \(Int(ControlRequest.maximumLocateTimeout))

                Example:
                  locationctl locate logger --timeout 10
                """),
        Page(
            name: "watch", synopsis: "watch [CLIENT]",
            summary: "print events as they happen, one line each",
            details: """
                Starts with the current state (source, each client's authorization, open prompts),
                then prints authorization, prompt, location, error and source events until
                interrupted. With --json, each event is printed as the daemon sent it.

                Example:
                  locationctl watch logger
                """),
        Page(
            name: "report", synopsis: "report [CLIENT] [--since DURATION]",
            summary: "the access report: positions handed to each client",
            details: """
                Per client: the first and last minute a position was handed out, how many,
                by sink (log, gpsd_socket, gpsd_port, nmea_socket, watch), by accuracy and by
                socket peer, over the days the daemon keeps (report_days, default 7) or the
                last DURATION (90s, 15m, 2h, 7d). The operator sees every client, a client's
                app its own, anyone else none. With --json, one object: {"clients":[…]}.

                Example:
                  locationctl report logger --since 1d
                """),
        Page(
            name: "tail", synopsis: "tail [CLIENT|FILE] [-n N] [-f]",
            summary: "print the last records of a client's coordinate log",
            details: """
                CLIENT's log path comes from the daemon (default: the first configured client);
                an argument containing '/' or ending in .jsonl is read as a log file directly,
                without the daemon.

                Options:
                  -n, --lines N   print the last N records first (default 10; 0 for none)
                  -f, --follow    keep printing records as they are written, across log rotation

                Example:
                  locationctl tail logger -n 20 -f
                """),
        Page(
            name: "export", synopsis: "export LOG --format gpx|geojson|kml|csv [-o FILE] [--gap S] [--line]",
            summary: "convert a coordinate log to GPX, GeoJSON, KML or CSV",
            details: """
                Reads LOG (- for standard input) and writes GPX 1.1 (a track per client, split into
                segments at gaps), GeoJSON (a point per record), KML 2.2 (a gx:Track per segment) or
                CSV with GPSLogger's column names. Without --format, the extension of -o decides.
                Bad lines are reported by number and skipped.

                Options:
                  --format F      gpx, geojson, kml or csv
                  -o, --output FILE
                                  write FILE instead of standard output
                  --gap S         seconds without a record that start a new segment (default 60)
                  --line          GeoJSON: a LineString per track (MultiLineString at gaps), times in
                                  its properties, instead of a Point per record

                Example:
                  locationctl export /var/log/locationd/logger.jsonl --format gpx -o walk.gpx
                """),
        Page(
            name: "summary", synopsis: "summary LOG... [--gap S]",
            summary: "what a coordinate log recorded: fixes, time, distance, gaps, accuracy",
            details: """
                Reads the logs (a log and its rotated files, in any order; - for standard input)
                as one track in time order and prints: fixes, first and last time, duration,
                distance along the track (WGS-84 geodesic), gaps longer than S seconds with their
                times, median and 95th percentile of the horizontal accuracy, fix modes, bytes
                read and the fix rate. With --json, one object (keys in locationctl(1)).

                Options:
                  --gap S         seconds without a record that make a gap (default 10)

                Example:
                  locationctl summary /var/log/locationd/logger.jsonl.1 /var/log/locationd/logger.jsonl
                """),
        Page(
            name: "plot", synopsis: "plot LOG... -o FILE [--gap S]",
            summary: "draw coordinate logs as a track in a self-contained SVG",
            details: """
                Reads the logs as summary does and writes an SVG map of the track: north up,
                equirectangular around its middle latitude, a scale bar, start and end marks,
                breaks at gaps longer than S seconds, each fix coloured by its horizontal
                accuracy with a legend, and the summary's figures in the title. No map tiles
                and no network: it opens in any browser.

                Options:
                  -o, --output FILE
                                  the SVG to write (- for standard output)
                  --gap S         seconds without a record that break the line (default 10)

                Example:
                  locationctl plot /var/log/locationd/logger.jsonl -o track.svg
                """),
    ]

    /// The page for a command word.
    public static func page(_ name: String) -> Page? { pages.first { $0.name == name } }

    /// Every command word.
    public static var commandNames: [String] { pages.map(\.name) }

    /// The overview: `locationctl --help`.
    public static var overview: String {
        let width = (pages.map(\.name.count).max() ?? 0) + 2
        var lines = [
            "usage: locationctl [--socket PATH] [--json] COMMAND [ARGS]",
            "",
            "Talks to a running locationd: shows and changes location permissions, watches events,",
            "reads and converts coordinate logs.",
            "",
            "Commands:",
        ]
        for page in pages {
            lines.append("  " + page.name + String(repeating: " ", count: width - page.name.count) + page.summary)
        }
        lines.append("")
        lines.append(globalOptions)
        lines.append("")
        lines.append(exitStatus)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help for `command`, or the overview for `nil` (or an unknown word).
    public static func help(for command: String?) -> String {
        guard let command, let page = page(command) else { return overview }
        return """
            usage: locationctl [--socket PATH] [--json] \(page.synopsis)

            \(page.summary.prefix(1).uppercased() + page.summary.dropFirst()).

            \(page.details)

            \(globalOptions)

            \(exitStatus)

            """
    }
}
