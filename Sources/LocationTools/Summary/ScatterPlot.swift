import LocationProtocol
import LocationValues

/// `locationctl plot --reference`: the scatter gpsprof draws, as one self-contained SVG 1.1
/// document (no scripts, no external references).
///
/// North up, square: each full-accuracy fix is a dot at its metres east and
/// north (`ReceiverAccuracy.offsets`) of the plot's origin — the mark, or
/// with `mean` the mean of every receiver's fixes (where the axes cross, no
/// marker: it is no receiver's figure), each receiver's own mean
/// marked with a cross in its colour. Per receiver, a dashed CEP50 and a
/// solid CEP95 circle around the point its errors are measured from, and a
/// legend line with its fixes, CEP50 and 2DRMS. Circles and crosses are
/// drawn above every dot, each over a white halo, so a tight receiver's stay
/// visible over its own dots. A scale bar gives metres;
/// circles and the bar are written to 10⁻⁶ px (so both can be measured to far below 1 cm). A dot less than 1.5 px from
/// the last one drawn for the same receiver is left out.
public struct ScatterPlot: Sendable {
    /// The receivers' colours, in order (repeating after six).
    public static let colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    /// The document's width in pixels; the map is a square `mapSize` across.
    public static let width = 960.0
    /// The map's side in pixels.
    public static let mapSize = 600.0
    static let top = 78.0

    let receivers: [ReceiverAccuracy]
    let reference: SurveyReference
    let title: String

    /// A scatter of `receivers` (as `ReceiverAccuracy.all` gives them) around `reference`, titled `title`.
    public init(_ receivers: [ReceiverAccuracy], reference: SurveyReference, title: String) {
        self.receivers = receivers.filter { $0.fixes > 0 }
        self.reference = reference
        self.title = title
    }

    /// The plot's origin: the mark, or the mean of every receiver's mean weighted by its fixes.
    var origin: (latitude: Double, longitude: Double) {
        if case .mark(let lat, let lon, _) = reference { return (lat, lon) }
        let total = Double(receivers.reduce(0) { $0 + $1.fixes })
        guard let first = receivers.first, total > 0 else { return (0, 0) }
        var lat = 0.0, lon = 0.0
        for r in receivers {
            lat += r.latitude * Double(r.fixes)
            lon += (r.longitude - first.longitude).remainder(dividingBy: 360) * Double(r.fixes)
        }
        return (lat / total, (first.longitude + lon / total).remainder(dividingBy: 360))
    }

    /// The SVG document, UTF-8.
    public func svg() -> [UInt8] {
        let origin = self.origin
        let plane = LocalTangentPlane(latitude: origin.latitude, longitude: origin.longitude)
        // Where each receiver's errors are measured from, in metres from the origin.
        let centres = receivers.map { r -> (east: Double, north: Double) in
            reference == .mean ? plane.offset(latitude: r.latitude, longitude: r.longitude) : (0, 0)
        }
        var extent = 1.0
        for (i, r) in receivers.enumerated() {
            let c = centres[i]
            extent = max(extent, max(abs(c.east), abs(c.north)) + (r.cep95 ?? 0))
            for o in r.offsets { extent = max(extent, abs(c.east + o.east), abs(c.north + o.north)) }
        }
        extent *= 1.08
        let scale = Self.mapSize / 2 / extent
        let left = (Self.width - Self.mapSize) / 2
        let centreX = left + Self.mapSize / 2, centreY = Self.top + Self.mapSize / 2
        func x(_ east: Double) -> Double { centreX + east * scale }
        func y(_ north: Double) -> Double { centreY - north * scale }
        let legendTop = Self.top + Self.mapSize + 60
        let height = legendTop + 22 * Double(receivers.count) + 16

        var out: [UInt8] = []
        out.reserveCapacity(48 * receivers.reduce(0) { $0 + $1.fixes } + 4096)
        put(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n", &out)
        put(#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\#(n(Self.width))" height="\#(n(height))""#, &out)
        put(#" viewBox="0 0 \#(n(Self.width)) \#(n(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#, &out)
        put("\n<title>", &out)
        ByteText.appendXML(title, to: &out)
        put("</title>\n" + ##"<rect width="100%" height="100%" fill="#ffffff"/>"## + "\n", &out)
        put(#"<text x="24" y="30" font-size="18" font-weight="bold">"#, &out)
        ByteText.appendXML(title, to: &out)
        put("</text>\n", &out)
        put(##"<text x="24" y="54" font-size="14" fill="#333333">"##, &out)
        ByteText.appendXML(subtitle, to: &out)
        put("</text>\n", &out)
        put(##"<rect x="\##(n(left))" y="\##(n(Self.top))" width="\##(n(Self.mapSize))" height="\##(n(Self.mapSize))" fill="#f7f7f2" stroke="#cccccc"/>"## + "\n", &out)
        // Axes through the origin.
        put(##"<g id="axes" stroke="#bbbbbb" stroke-width="1"><line x1="\##(n(left))" y1="\##(n(centreY))" x2="\##(n(left + Self.mapSize))" y2="\##(n(centreY))"/>"##, &out)
        put(##"<line x1="\##(n(centreX))" y1="\##(n(Self.top))" x2="\##(n(centreX))" y2="\##(n(Self.top + Self.mapSize))"/></g>"## + "\n", &out)

        // Every receiver's dots first, then every circle and mean above all of them, each over a white
        // halo: a tight receiver's circles would otherwise vanish among its own dots (or another's).
        for (i, r) in receivers.enumerated() {
            let colour = Self.colours[i % Self.colours.count]
            let c = centres[i]
            put(#"<g class="fixes" fill="\#(colour)" fill-opacity="0.6">"# + "\n", &out)
            var last: (Double, Double)?
            for o in r.offsets {
                let px = x(c.east + o.east), py = y(c.north + o.north)
                if let last, (px - last.0) * (px - last.0) + (py - last.1) * (py - last.1) < 2.25 { continue }
                last = (px, py)
                put(#"<circle cx="\#(n(px))" cy="\#(n(py))" r="2"/>"# + "\n", &out)
            }
            put("</g>\n", &out)
        }
        // The reference, under the circles drawn around it. With `mean` there is none: the origin
        // (all fixes' mean, a figure of no receiver's) is only where the axes cross, as the subtitle says.
        if reference != .mean {
            put(##"<g id="reference"><path d="M \##(n(centreX - 9)) \##(n(centreY)) h 18 M \##(n(centreX)) \##(n(centreY - 9)) v 18" stroke="#000000" stroke-width="2.5"/>"##, &out)
            put(##"<circle cx="\##(n(centreX, 3))" cy="\##(n(centreY, 3))" r="4" fill="none" stroke="#000000" stroke-width="1.5"/>"##, &out)
            put(##"<text x="\##(n(centreX + 10))" y="\##(n(centreY - 10))" font-size="13" fill="#000000" stroke="#ffffff" stroke-width="3" paint-order="stroke">"##, &out)
            put("reference</text></g>\n", &out)
        }
        for (i, r) in receivers.enumerated() {
            let colour = Self.colours[i % Self.colours.count]
            let c = centres[i]
            let device = r.device ?? "(unnamed)"
            for (kind, radius, dash) in [("cep50", r.cep50, #" stroke-dasharray="6 4""#), ("cep95", r.cep95, "")] {
                guard let radius else { continue }
                let place = #"cx="\#(n(x(c.east), 3))" cy="\#(n(y(c.north), 3))" r="\#(n(radius * scale, 6))" fill="none""#
                put(##"<circle class="halo" \##(place) stroke="#ffffff" stroke-width="5"/>"## + "\n", &out)
                put(#"<circle class="\#(kind)" data-device=""#, &out)
                ByteText.appendXML(device, to: &out)
                put(#"" \#(place) stroke="\#(colour)" stroke-width="2"\#(dash)/>"# + "\n", &out)
            }
            if reference == .mean {
                let cross = #"d="M \#(n(x(c.east) - 7)) \#(n(y(c.north))) h 14 M \#(n(x(c.east))) \#(n(y(c.north) - 7)) v 14""#
                put(##"<path class="halo" \##(cross) stroke="#ffffff" stroke-width="6"/>"## + "\n", &out)
                put(#"<path class="mean" \#(cross) stroke="\#(colour)" stroke-width="3"/>"# + "\n", &out)
            }
        }
        put(##"<g id="north" fill="#333333"><path d="M \##(n(left + Self.mapSize - 22)) \##(n(Self.top + 10)) l 7 18 l -14 0 z"/><text x="\##(n(left + Self.mapSize - 22))" y="\##(n(Self.top + 42))" font-size="13" text-anchor="middle">N</text></g>"## + "\n", &out)

        // Scale bar under the map.
        let barMetres = TrackPlot.niceLength(below: Self.mapSize / 4 / scale, minimum: 0.001)
        let barY = Self.top + Self.mapSize + 20
        put(##"<g id="scale"><rect x="\##(n(left))" y="\##(n(barY))" width="\##(n(barMetres * scale, 6))" height="6" fill="#333333"/>"##, &out)
        put(#"<text x="\#(n(left + barMetres * scale + 8))" y="\#(n(barY + 7))" font-size="13" data-metres="\#(n(barMetres, 3))">"#, &out)
        ByteText.appendXML(TrackPlot.lengthLabel(barMetres), to: &out)
        put("</text></g>\n", &out)

        // Legend: a line per receiver.
        put(#"<g id="legend" font-size="13">"# + "\n", &out)
        for (i, r) in receivers.enumerated() {
            let ly = legendTop + 22 * Double(i)
            put(#"<circle cx="\#(n(left + 6))" cy="\#(n(ly))" r="5" fill="\#(Self.colours[i % Self.colours.count])"/><text x="\#(n(left + 18))" y="\#(n(ly + 4))">"#, &out)
            let text = "\(r.device ?? "(unnamed)"): \(r.fixes) fixes, CEP50 \(SummaryRenderer.metres(r.cep50)) (dashed), "
                + "CEP95 \(SummaryRenderer.metres(r.cep95)), 2DRMS \(SummaryRenderer.metres(r.drms2))"
                + (r.moved ? " — moved \(SummaryRenderer.length(r.span)): no accuracy figure" : "")
            ByteText.appendXML(text, to: &out)
            put("</text>\n", &out)
        }
        put("</g>\n</svg>\n", &out)
        return out
    }

    /// What the dots are measured against.
    var subtitle: String {
        switch reference {
        case .mark(let lat, let lon, _):
            "metres east and north of the reference \(TextFormat.position(latitude: lat, longitude: lon)); circles: CEP50, CEP95"
        case .mean:
            "metres east and north of all fixes' mean (where the axes cross); circles around each receiver's own mean (+): CEP50, CEP95"
        }
    }

    private func put(_ text: String, _ out: inout [UInt8]) { ByteText.append(text, to: &out) }

    private func n(_ value: Double, _ decimals: Int = 1) -> String {
        FixedDecimal.format(value.isFinite ? value : 0, decimals: decimals) ?? "0"
    }
}
