
extension CtlCommands {
    /// The commands that read coordinate logs: tail, export, summary, plot.
    static let logs: [CtlCommand] = [
        CtlCommand(
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
                """,
            arguments: [.init("CLIENT|FILE", .clientOrFile)],
            options: [.init(["-n", "--lines"], value: CtlCommand.Completion.none, help: "records to print first"), .init(["-f", "--follow"], help: "keep printing records as they are written")]
        ) { p in
            p.tailAction()
        },
        CtlCommand(
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
                """,
            arguments: [.init("LOG", .file)],
            options: [
                .init(["--format"], value: .words(ExportFormat.allCases.map(\.rawValue)), help: "output format"),
                .init(["-o", "--output"], value: .file, help: "output file"),
                .init(["--gap"], value: CtlCommand.Completion.none, help: "seconds that start a new segment"),
                .init(["--line"], help: "GeoJSON: one LineString per track"),
            ]
        ) { p in
            p.exportAction()
        },
        CtlCommand(
            name: "summary", synopsis: "summary LOG... [--gap S] [--reference LAT,LON[,ALT]|mean]",
            summary: "what a coordinate log recorded: fixes, time, distance, gaps, accuracy",
            details: """
                Reads the logs (a log and its rotated files, in any order; - for standard input)
                as one track in time order and prints: fixes, first and last time, duration,
                distance along the track (WGS-84 geodesic), gaps longer than S seconds with their
                times, median and 95th percentile of the horizontal accuracy, fix modes, bytes
                read and the fix rate. With --json, one object (keys in locationctl(1)).

                With --reference, each receiver (the records' device) is measured against a
                surveyed mark, or against its own mean position: CEP50/95/99 and 2DRMS of the
                geodesic horizontal error, the bias (mean offset) and its bearing, the share of
                fixes whose error is within their hAcc, and with ALT the vertical error's median
                and 95th percentile. Reduced-accuracy records are left out of these figures.

                Options:
                  --gap S         seconds without a record that make a gap (default 10)
                  --reference LAT,LON[,ALT]|mean
                                  measure each receiver against this mark (degrees, metres
                                  above mean sea level) or its mean position

                Example:
                  locationctl summary /var/log/locationd/logger.jsonl.1 /var/log/locationd/logger.jsonl
                  locationctl summary field.jsonl --reference 35.6811990,139.7670669,40.2
                """,
            arguments: [.init("LOG", .file, repeats: true)],
            options: [
                .init(["--gap"], value: CtlCommand.Completion.none, help: "seconds that make a gap"),
                .init(["--reference"], value: CtlCommand.Completion.none, help: "LAT,LON[,ALT] or mean: measure each receiver"),
            ]
        ) { p in
            p.trackAction()
        },
        CtlCommand(
            name: "plot", synopsis: "plot LOG... -o FILE [--gap S] [--reference LAT,LON[,ALT]|mean]",
            summary: "draw coordinate logs as a track in a self-contained SVG",
            details: """
                Reads the logs as summary does and writes an SVG map of the track: north up,
                equirectangular around its middle latitude, a scale bar, start and end marks,
                breaks at gaps longer than S seconds, each fix coloured by its horizontal
                accuracy with a legend, and the summary's figures in the title. No map tiles
                and no network: it opens in any browser.

                With --reference, a scatter instead: each fix a dot in metres east and north of
                the reference, a CEP50 and a CEP95 circle per receiver, the reference marked, a
                scale and a legend per receiver with its CEP50 and 2DRMS (as summary computes them).

                Options:
                  -o, --output FILE
                                  the SVG to write (- for standard output)
                  --gap S         seconds without a record that break the line (default 10)
                  --reference LAT,LON[,ALT]|mean
                                  draw the scatter around this mark or each receiver's mean

                Example:
                  locationctl plot /var/log/locationd/logger.jsonl -o track.svg
                  locationctl plot field.jsonl --reference 35.6811990,139.7670669 -o scatter.svg
                """,
            arguments: [.init("LOG", .file, repeats: true)],
            options: [
                .init(["-o", "--output"], value: .file, help: "the SVG to write"),
                .init(["--gap"], value: CtlCommand.Completion.none, help: "seconds that break the line"),
                .init(["--reference"], value: CtlCommand.Completion.none, help: "LAT,LON[,ALT] or mean: draw a scatter"),
            ]
        ) { p in
            p.trackAction()
        },
    ]
}
