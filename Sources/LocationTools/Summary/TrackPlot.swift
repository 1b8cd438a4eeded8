import Glibc
import LocationProtocol
import LocationValues

/// `locationctl plot`: a track drawn as one self-contained SVG 1.1 document
/// (no tiles, no scripts, no external references), so it opens in any
/// browser or viewer, on a board or a laptop.
///
/// * Projection: equirectangular around the track's middle latitude φ₀, north
///   up — east metres `Δλ · N(φ₀) · cos φ₀`, north metres `Δφ · M(φ₀)` with
///   the WGS-84 radii of curvature, so a metre is as long across as up and
///   the scale bar holds over the whole map (to a fraction of a percent for
///   tracks of some kilometres). Longitudes are taken relative to the first
///   record, so a track across the antimeridian stays in one piece.
/// * Lines break where `Track` breaks them (gaps, a change of client or
///   accuracy). Each fix is a dot coloured by its horizontal error
///   (`AccuracyBand`); a dot less than 1.5 px from the last one drawn in the
///   same colour is left out, so a day at 1 Hz stays a small file.
/// * Reduced-accuracy records are grid-cell centres, not what the receiver
///   measured (#32): they are drawn apart as hollow grey squares on grey
///   lines, are not counted in the accuracy legend, and do not set the map's
///   extent while the track has full-accuracy records; the map is clipped to
///   its frame, so a cell centre kilometres away does not shrink the track.
/// * Marks: start (green ring) and end (red square), a scale bar, north.
/// * The title (and the SVG `<title>`) carries the summary's main figures.
public struct TrackPlot: Sendable {
    /// Horizontal error bands, best first, with their colours.
    public struct AccuracyBand: Sendable, Hashable {
        /// The band's upper limit in metres (`infinity` for the last).
        public var limit: Double
        /// The colour (`#rrggbb`).
        public var colour: String
        /// The legend's label.
        public var label: String
    }

    /// The bands a dot's colour comes from; a fix without an estimate is grey.
    public static let bands: [AccuracyBand] = [
        AccuracyBand(limit: 3, colour: "#1a9641", label: "≤ 3 m"),
        AccuracyBand(limit: 5, colour: "#7fbc41", label: "≤ 5 m"),
        AccuracyBand(limit: 10, colour: "#e6b800", label: "≤ 10 m"),
        AccuracyBand(limit: 25, colour: "#f46d43", label: "≤ 25 m"),
        AccuracyBand(limit: .infinity, colour: "#b2182b", label: "> 25 m"),
    ]
    /// The dash patterns of the receivers' lines, in order of first appearance (the first solid).
    static let dashes = ["", "6 3", "2 3", "8 3 2 3"]
    /// The colour of a fix without a horizontal error estimate.
    public static let unknownColour = "#8c8c8c"
    /// The colour of reduced-accuracy records (grid cells): their lines and hollow squares.
    public static let reducedColour = "#9e9e9e"

    /// The document's width in pixels.
    public static let width = 960.0
    /// The map's largest height in pixels.
    public static let mapHeight = 600.0
    static let margin = 24.0
    static let top = 78.0
    static let bottom = 84.0

    let track: Track
    let summary: TrackSummary

    /// A plot of `track`, titled with `summary`'s figures.
    public init(_ track: Track, summary: TrackSummary) {
        self.track = track
        self.summary = summary
    }

    /// The band index of a horizontal error (`bands.count` for unknown).
    public static func band(of error: Double?) -> Int {
        guard let error else { return bands.count }
        return bands.firstIndex { error <= $0.limit } ?? bands.count - 1
    }

    /// The SVG document, UTF-8: the page and its title, the map (lines, fixes, marks), then what
    /// reads it (the north arrow, the scale bar, the legend). Each part is a function of its own
    /// (TrackPlot+Map.swift, TrackPlot+Legend.swift) drawing on one `SVGCanvas` where `PlotLayout` puts it.
    public func svg() -> [UInt8] {
        let layout = PlotLayout(track)
        var canvas = SVGCanvas(capacity: 64 * track.points.count + 4096)
        page(layout, &canvas)
        map(layout, &canvas)
        north(layout, &canvas)
        let barY = scaleBar(layout, &canvas)
        legend(layout, barY: barY, &canvas)
        canvas.raw("</svg>\n")
        return canvas.bytes
    }

    /// The title's two lines: who and when; the main figures.
    public var titleLines: [String] {
        let who = summary.clients.isEmpty ? "track" : summary.clients.joined(separator: ", ")
        guard let start = summary.start, let end = summary.end, let duration = summary.duration else {
            return [who + ": no fixes"]
        }
        let sameDay = UTCTime.format(start).prefix(10) == UTCTime.format(end).prefix(10)
        let first = "\(who): \(TextFormat.dateTime(start)) to "
            + (sameDay ? TextFormat.clock(end) + " UTC" : TextFormat.dateTime(end)) + " (\(SummaryRenderer.duration(duration)))"
        var figures = [
            SummaryRenderer.count(summary.fixes, "fix", "fixes"),
            summary.receivers.count > 1 ? SummaryRenderer.distanceText(summary) : SummaryRenderer.length(summary.distance),
            summary.gaps.isEmpty
                ? "no gaps over \(SummaryRenderer.seconds(summary.gapThreshold))"
                : SummaryRenderer.count(summary.gaps.count, "gap", "gaps") + " over \(SummaryRenderer.seconds(summary.gapThreshold))",
        ]
        if let median = summary.horizontalErrorMedian, let p95 = summary.horizontalError95 {
            figures.append("accuracy median \(TextFormat.error(median)), 95 % \(TextFormat.error(p95))")
        }
        return [first, figures.joined(separator: " · ")]
    }

    /// The longest of 1, 2 or 5 × 10ⁿ metres not above `metres` (at least `minimum`, itself 10ⁿ m).
    static func niceLength(below metres: Double, minimum: Double = 1) -> Double {
        guard metres.isFinite, metres > minimum else { return minimum }
        var unit = minimum
        while unit * 10 <= metres { unit *= 10 }
        for factor in [5.0, 2.0] where unit * factor <= metres { return unit * factor }
        return unit
    }

    /// `20 cm`, `500 m`, `2 km`.
    static func lengthLabel(_ metres: Double) -> String {
        if metres >= 1000 { return (FixedDecimal.format(metres / 1000, decimals: 0) ?? "?") + " km" }
        if metres >= 1 { return (FixedDecimal.format(metres, decimals: 0) ?? "?") + " m" }
        return (FixedDecimal.format(metres * 100, decimals: metres >= 0.01 ? 0 : 1) ?? "?") + " cm"
    }
}
