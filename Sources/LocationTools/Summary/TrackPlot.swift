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

    /// The projected map: metres east and north of the map's centre for each point.
    struct Projection {
        var east: [Double]
        var north: [Double]
        var minEast = 0.0, maxEast = 0.0, minNorth = 0.0, maxNorth = 0.0

        /// `points` projected; the extent (`minEast`…`maxNorth`) covers only the points
        /// `inExtent` accepts, or every point when it accepts none.
        init(_ points: [Track.Point], inExtent: (Track.Point) -> Bool = { _ in true }) {
            guard let first = points.first else {
                east = []
                north = []
                return
            }
            var minLat = first.latitude, maxLat = first.latitude
            var minLon = 0.0, maxLon = 0.0
            var relative: [Double] = []
            relative.reserveCapacity(points.count)
            for point in points {
                minLat = min(minLat, point.latitude)
                maxLat = max(maxLat, point.latitude)
                var d = (point.longitude - first.longitude).remainder(dividingBy: 360)
                if d == -180 { d = 180 }
                relative.append(d)
                minLon = min(minLon, d)
                maxLon = max(maxLon, d)
            }
            let phi0 = (minLat + maxLat) / 2 * Geodesy.degrees
            let lonMid = (minLon + maxLon) / 2
            let s = sin(phi0)
            let w = 1 - Geodesy.eccentricitySquared * s * s
            let primeVertical = Geodesy.semiMajorAxis / w.squareRoot()
            let meridian = Geodesy.semiMajorAxis * (1 - Geodesy.eccentricitySquared) / (w * w.squareRoot())
            let eastPerDegree = Geodesy.degrees * primeVertical * cos(phi0)
            let northPerDegree = Geodesy.degrees * meridian
            let latMid = (minLat + maxLat) / 2
            east = relative.map { ($0 - lonMid) * eastPerDegree }
            north = points.map { ($0.latitude - latMid) * northPerDegree }
            var chosen = points.indices.filter { inExtent(points[$0]) }
            if chosen.isEmpty { chosen = Array(points.indices) }
            let east = east, north = north
            minEast = chosen.map { east[$0] }.min() ?? 0
            maxEast = chosen.map { east[$0] }.max() ?? 0
            minNorth = chosen.map { north[$0] }.min() ?? 0
            maxNorth = chosen.map { north[$0] }.max() ?? 0
        }
    }

    /// The SVG document, UTF-8.
    public func svg() -> [UInt8] {
        let points = track.points
        // Grid cells do not set the extent while there is a measured position to show.
        let projection = Projection(points) { $0.accuracy == .full }
        let reducedCount = points.count { $0.accuracy == .reduced }
        // Metres shown: the track's extent with 5 % room, at least 100 m across.
        let spanEast = max(projection.maxEast - projection.minEast, 1) * 1.1
        let spanNorth = max(projection.maxNorth - projection.minNorth, 1) * 1.1
        let mapWidth = Self.width - 2 * Self.margin
        var scale = min(mapWidth / spanEast, Self.mapHeight / spanNorth)
        scale = min(scale, mapWidth / 100)
        let mapHeight = min(Self.mapHeight, max(spanNorth * scale, 160))
        // Several receivers: a legend line naming each line's dash pattern; and one for the grid cells.
        let devices = track.devices
        let receiverRow = devices.count > 1 ? 22.0 : 0
        let height = Self.top + mapHeight + Self.bottom + receiverRow + (reducedCount > 0 ? 22 : 0)
        let centreX = Self.margin + mapWidth / 2
        let centreY = Self.top + mapHeight / 2
        let midEast = (projection.minEast + projection.maxEast) / 2
        let midNorth = (projection.minNorth + projection.maxNorth) / 2
        func x(_ i: Int) -> Double { centreX + (projection.east[i] - midEast) * scale }
        func y(_ i: Int) -> Double { centreY - (projection.north[i] - midNorth) * scale }

        var out: [UInt8] = []
        out.reserveCapacity(64 * points.count + 4096)
        ByteText.append(#"<?xml version="1.0" encoding="UTF-8"?>"#, to: &out)
        ByteText.append("\n", to: &out)
        ByteText.append(#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width=""#, to: &out)
        number(Self.width, &out)
        ByteText.append(#"" height=""#, to: &out)
        number(height, &out)
        ByteText.append(#"" viewBox="0 0 "#, to: &out)
        number(Self.width, &out)
        ByteText.append(" ", to: &out)
        number(height, &out)
        ByteText.append(#"" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#, to: &out)
        ByteText.append("\n<title>", to: &out)
        ByteText.appendXML(titleLines.joined(separator: " — "), to: &out)
        ByteText.append("</title>\n", to: &out)
        ByteText.append(##"<rect width="100%" height="100%" fill="#ffffff"/>"##, to: &out)
        ByteText.append("\n", to: &out)
        // Title.
        for (i, line) in titleLines.enumerated() {
            let attributes = i == 0 ? ##" font-size="18" font-weight="bold""## : ##" font-size="14" fill="#333333""##
            text(line, x: Self.margin, y: 30 + 24 * Double(i), attributes: attributes, &out)
            out.append(0x0A)
        }
        // Map frame; what lies outside the extent (grid cells far off) is cut at it.
        func frame() {
            ByteText.append(#"<rect x=""#, to: &out)
            number(Self.margin, &out)
            ByteText.append(#"" y=""#, to: &out)
            number(Self.top, &out)
            ByteText.append(#"" width=""#, to: &out)
            number(mapWidth, &out)
            ByteText.append(#"" height=""#, to: &out)
            number(mapHeight, &out)
            ByteText.append("\"", to: &out)
        }
        frame()
        ByteText.append(##" fill="#f7f7f2" stroke="#cccccc"/>"##, to: &out)
        ByteText.append("\n<clipPath id=\"map\">", to: &out)
        frame()
        ByteText.append("/></clipPath>\n<g clip-path=\"url(#map)\">\n", to: &out)

        // Lines, broken at gaps.
        ByteText.append(##"<g id="track" fill="none" stroke="#555555" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round">"##, to: &out)
        ByteText.append("\n", to: &out)
        for line in track.lines where line.count > 1 {
            ByteText.append("<polyline ", to: &out)
            if points[line[0]].accuracy == .reduced {
                ByteText.append(#"class="reduced" stroke=""#, to: &out)
                ByteText.append(Self.reducedColour, to: &out)
                ByteText.append(#"" "#, to: &out)
            }
            // Only with several receivers: one receiver's plot stays as it was drawn before receivers were named.
            if devices.count > 1, let device = points[line[0]].device {
                ByteText.append(#"data-device=""#, to: &out)
                ByteText.appendXML(device, to: &out)
                ByteText.append(#"" "#, to: &out)
            }
            // Several receivers: each its own dash pattern (the first solid), so crossing tracks stay apart.
            let dashes = devices.firstIndex(of: points[line[0]].device).map { Self.dashes[$0 % Self.dashes.count] } ?? ""
            if devices.count > 1, !dashes.isEmpty { ByteText.append(#"stroke-dasharray="\#(dashes)" "#, to: &out) }
            ByteText.append(#"points=""#, to: &out)
            var lastX = -1e9, lastY = -1e9
            for i in line {
                let px = x(i), py = y(i)
                if i != line.last, abs(px - lastX) < 0.75 && abs(py - lastY) < 0.75 { continue }
                if lastX > -1e9 { out.append(UInt8(ascii: " ")) }
                number(px, &out)
                out.append(UInt8(ascii: ","))
                number(py, &out)
                lastX = px
                lastY = py
            }
            ByteText.append("\"/>\n", to: &out)
        }
        ByteText.append("</g>\n", to: &out)

        // Fixes, one group per colour band.
        var byBand = [[Int]](repeating: [], count: Self.bands.count + 1)
        var lastDrawn = [(x: Double, y: Double)?](repeating: nil, count: Self.bands.count + 1)
        var reduced: [Int] = []
        var lastReduced: (x: Double, y: Double)?
        for i in points.indices {
            if points[i].accuracy == .reduced {
                let px = x(i), py = y(i)
                if let last = lastReduced, (px - last.x) * (px - last.x) + (py - last.y) * (py - last.y) < 2.25 { continue }
                lastReduced = (px, py)
                reduced.append(i)
                continue
            }
            let band = Self.band(of: points[i].horizontalError)
            let px = x(i), py = y(i)
            if let last = lastDrawn[band], (px - last.x) * (px - last.x) + (py - last.y) * (py - last.y) < 2.25 { continue }
            lastDrawn[band] = (px, py)
            byBand[band].append(i)
        }
        for (band, indices) in byBand.enumerated() where !indices.isEmpty {
            ByteText.append(#"<g fill=""#, to: &out)
            ByteText.append(band < Self.bands.count ? Self.bands[band].colour : Self.unknownColour, to: &out)
            ByteText.append("\">\n", to: &out)
            for i in indices {
                ByteText.append(#"<circle cx=""#, to: &out)
                number(x(i), &out)
                ByteText.append(#"" cy=""#, to: &out)
                number(y(i), &out)
                ByteText.append(#"" r="2.5"/>"#, to: &out)
                out.append(0x0A)
            }
            ByteText.append("</g>\n", to: &out)
        }
        if !reduced.isEmpty {
            ByteText.append(#"<g id="reduced" fill="none" stroke=""#, to: &out)
            ByteText.append(Self.reducedColour, to: &out)
            ByteText.append("\" stroke-width=\"1.5\">\n", to: &out)
            for i in reduced {
                ByteText.append(#"<rect x=""#, to: &out)
                number(x(i) - 3, &out)
                ByteText.append(#"" y=""#, to: &out)
                number(y(i) - 3, &out)
                ByteText.append(#"" width="6" height="6"/>"#, to: &out)
                out.append(0x0A)
            }
            ByteText.append("</g>\n", to: &out)
        }
        ByteText.append("</g>\n", to: &out)

        // Start and end.
        if !points.isEmpty {
            let last = points.count - 1
            ByteText.append(#"<rect x=""#, to: &out)
            number(x(last) - 6, &out)
            ByteText.append(#"" y=""#, to: &out)
            number(y(last) - 6, &out)
            ByteText.append(##"" width="12" height="12" fill="none" stroke="#b2182b" stroke-width="3"><title>end "##, to: &out)
            ByteText.appendXML(UTCTime.format(points[last].time), to: &out)
            ByteText.append("</title></rect>\n", to: &out)
            ByteText.append(#"<circle cx=""#, to: &out)
            number(x(0), &out)
            ByteText.append(#"" cy=""#, to: &out)
            number(y(0), &out)
            ByteText.append(##"" r="7" fill="none" stroke="#1a9641" stroke-width="3"><title>start "##, to: &out)
            ByteText.appendXML(UTCTime.format(points[0].time), to: &out)
            ByteText.append("</title></circle>\n", to: &out)
            label("start", x: x(0) + 10, y: y(0) - 8, &out)
            label("end", x: x(last) + 10, y: y(last) + 16, &out)
        }
        // Several receivers: each track named beside it — receiver k of n at the fix (k+1)/(n+1) of the
        // way through its own, so tracks side by side are not named on top of each other — and in the
        // legend by its dashes.
        if devices.count > 1 {
            for (k, device) in devices.enumerated() {
                let mine = points.indices.filter { points[$0].device == device }
                guard !mine.isEmpty else { continue }
                let at = mine[min(mine.count - 1, mine.count * (k + 1) / (devices.count + 1))]
                label(device ?? "(unnamed)", x: x(at) + 10, y: y(at) + 4, &out)
            }
        }

        // North arrow, top right of the map.
        let northX = Self.margin + mapWidth - 22
        ByteText.append(##"<g id="north" fill="#333333"><path d="M "##, to: &out)
        number(northX, &out)
        out.append(UInt8(ascii: " "))
        number(Self.top + 10, &out)
        ByteText.append(" l 7 18 l -14 0 z\"/>", to: &out)
        text("N", x: northX, y: Self.top + 42, attributes: #" font-size="13" text-anchor="middle""#, &out)
        ByteText.append("</g>\n", to: &out)

        // Scale bar, bottom left under the map.
        let barMetres = Self.niceLength(below: mapWidth / 4 / scale)
        let barPixels = barMetres * scale
        let barY = Self.top + mapHeight + 26
        ByteText.append(#"<g id="scale"><rect x=""#, to: &out)
        number(Self.margin, &out)
        ByteText.append(#"" y=""#, to: &out)
        number(barY, &out)
        ByteText.append(#"" width=""#, to: &out)
        number(barPixels, &out)
        ByteText.append(##"" height="6" fill="#333333"/>"##, to: &out)
        text(Self.lengthLabel(barMetres), x: Self.margin + barPixels + 8, y: barY + 7, attributes: #" font-size="13""#, &out)
        ByteText.append("</g>\n", to: &out)

        // Legend: horizontal accuracy bands with their counts.
        var counts = [Int](repeating: 0, count: Self.bands.count + 1)
        for point in points where point.accuracy == .full { counts[Self.band(of: point.horizontalError)] += 1 }
        var legendX = Self.margin
        let legendY = barY + 32
        ByteText.append(#"<g id="legend" font-size="13">"#, to: &out)
        text("horizontal accuracy:", x: legendX, y: legendY + 4, &out)
        out.append(0x0A)
        legendX += 150
        for band in 0...Self.bands.count where band < Self.bands.count || counts[band] > 0 {
            let colour = band < Self.bands.count ? Self.bands[band].colour : Self.unknownColour
            let entry = (band < Self.bands.count ? Self.bands[band].label : "unknown") + " (\(counts[band]))"
            ByteText.append(#"<circle cx=""#, to: &out)
            number(legendX + 5, &out)
            ByteText.append(#"" cy=""#, to: &out)
            number(legendY, &out)
            ByteText.append(#"" r="5" fill=""#, to: &out)
            ByteText.append(colour, to: &out)
            ByteText.append(#""/>"#, to: &out)
            text(entry, x: legendX + 14, y: legendY + 4, &out)
            out.append(0x0A)
            legendX += 30 + 7.5 * Double(entry.count)
        }
        if devices.count > 1 {
            // Which line is which: each receiver's dash pattern beside its name.
            text("receivers:", x: Self.margin, y: legendY + 26, &out)
            out.append(0x0A)
            legendX = Self.margin + 150
            for (i, device) in devices.enumerated() {
                let name = device ?? "(unnamed)"
                ByteText.append(##"<line class="receiver" stroke="#555555" stroke-width="1.5" "##, to: &out)
                let dashes = Self.dashes[i % Self.dashes.count]
                if !dashes.isEmpty { ByteText.append(#"stroke-dasharray="\#(dashes)" "#, to: &out) }
                ByteText.append(#"x1=""#, to: &out)
                number(legendX, &out)
                ByteText.append(#"" x2=""#, to: &out)
                number(legendX + 28, &out)
                ByteText.append(#"" y1=""#, to: &out)
                number(legendY + 22, &out)
                ByteText.append(#"" y2=""#, to: &out)
                number(legendY + 22, &out)
                ByteText.append(#""/>"#, to: &out)
                text(name, x: legendX + 34, y: legendY + 26, &out)
                out.append(0x0A)
                legendX += 50 + 7.5 * Double(name.count)
            }
        }
        if reducedCount > 0 {
            let legendY = legendY + receiverRow
            // Cells off the map are counted, so none is missing without a word.
            let outside = points.indices.count { i in
                points[i].accuracy == .reduced
                    && (!(Self.margin...(Self.margin + mapWidth)).contains(x(i)) || !(Self.top...(Self.top + mapHeight)).contains(y(i)))
            }
            let entry = "reduced accuracy: grid cells, not measured positions (\(reducedCount)"
                + (outside > 0 ? ", \(outside) outside the map)" : ")")
            legendX = Self.margin + 150
            ByteText.append(#"<rect x=""#, to: &out)
            number(legendX + 2, &out)
            ByteText.append(#"" y=""#, to: &out)
            number(legendY + 19, &out)
            ByteText.append(#"" width="6" height="6" fill="none" stroke=""#, to: &out)
            ByteText.append(Self.reducedColour, to: &out)
            ByteText.append(#"" stroke-width="1.5"/>"#, to: &out)
            text(entry, x: legendX + 14, y: legendY + 26, &out)
            out.append(0x0A)
        }
        ByteText.append("</g>\n</svg>\n", to: &out)
        return out
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

    private func label(_ content: String, x: Double, y: Double, _ out: inout [UInt8]) {
        let halo = ##" font-size="13" fill="#222222" stroke="#ffffff" stroke-width="3" paint-order="stroke""##
        text(content, x: x, y: y, attributes: halo, &out)
        out.append(0x0A)
    }

    /// `<text x="…" y="…"ATTRIBUTES>CONTENT</text>`, the content escaped for XML.
    private func text(_ content: String, x: Double, y: Double, attributes: String = "", _ out: inout [UInt8]) {
        ByteText.append(#"<text x=""#, to: &out)
        number(x, &out)
        ByteText.append(#"" y=""#, to: &out)
        number(y, &out)
        out.append(UInt8(ascii: "\""))
        ByteText.append(attributes, to: &out)
        out.append(UInt8(ascii: ">"))
        ByteText.appendXML(content, to: &out)
        ByteText.append("</text>", to: &out)
    }

    private func number(_ value: Double, _ out: inout [UInt8]) {
        _ = FixedDecimal.append(value.isFinite ? value : 0, decimals: 1, to: &out)
    }
}
