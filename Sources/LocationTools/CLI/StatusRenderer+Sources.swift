import LocationProtocol

/// The sources of `locationctl status`, one each under the combined line when there are two or
/// more (`[source]` and `[source.NAME]` sections):
///
/// ```
/// gpsd 127.0.0.1:2947 (default), nmea /var/lib/gnss.nmea (gnss): connected, 3D fix 0 s ago, ±2.1 m
///   source default, gpsd 127.0.0.1:2947: fix
///     read 120 lines (0 unreadable), 40 fixes; dropped 0 without a time, 0 late; connected 1 time in 1 attempt
///   source gnss, nmea /var/lib/gnss.nmea: end-of-file
///     read 80 lines (0 unreadable), 40 fixes; dropped 0 without a time, 0 late; connected 1 time in 1 attempt
/// ```
extension StatusRenderer {
    /// The lines under the source line: each source's state, outage and counts with several, the
    /// one source's counts otherwise.
    static func sourceLines(_ report: StatusReport) -> [String] {
        guard report.sources.count > 1 else { return report.sourceCounts.map { ["  " + $0.summary] } ?? [] }
        var lines: [String] = []
        for source in report.sources {
            var line = "  source \(source.name), \(source.description): \(source.state.rawValue)"
            if let outage = source.outage { line += "; " + outage.summary }
            lines.append(line)
            if let counts = source.counts { lines.append("    " + counts.summary) }
        }
        return lines
    }
}
