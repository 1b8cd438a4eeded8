import LocationValues

/// The page and the map of a track plot: the document's head and title, the frame, and inside
/// it the lines, the fixes and the grid cells; over it the start and end marks and the receivers'
/// names.
extension TrackPlot {
    /// The XML declaration, the `<svg>` element with its `<title>`, the white page, the title lines.
    func page(_ layout: PlotLayout, _ canvas: inout SVGCanvas) {
        canvas.raw(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        canvas.raw("\n")
        canvas.raw(#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width=""#)
        canvas.number(Self.width)
        canvas.raw(#"" height=""#)
        canvas.number(layout.height)
        canvas.raw(#"" viewBox="0 0 "#)
        canvas.number(Self.width)
        canvas.raw(" ")
        canvas.number(layout.height)
        canvas.raw(#"" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#)
        canvas.raw("\n<title>")
        canvas.xml(titleLines.joined(separator: " — "))
        canvas.raw("</title>\n")
        canvas.raw(##"<rect width="100%" height="100%" fill="#ffffff"/>"##)
        canvas.raw("\n")
        for (i, line) in titleLines.enumerated() {
            let attributes = i == 0 ? ##" font-size="18" font-weight="bold""## : ##" font-size="14" fill="#333333""##
            canvas.text(line, x: Self.margin, y: 30 + 24 * Double(i), attributes: attributes)
            canvas.byte(0x0A)
        }
    }

    /// The map: its frame; what lies outside the extent (grid cells far off) is cut at it.
    func map(_ layout: PlotLayout, _ canvas: inout SVGCanvas) {
        frame(layout, &canvas)
        canvas.raw(##" fill="#f7f7f2" stroke="#cccccc"/>"##)
        canvas.raw("\n<clipPath id=\"map\">")
        frame(layout, &canvas)
        canvas.raw("/></clipPath>\n<g clip-path=\"url(#map)\">\n")
        lines(layout, &canvas)
        fixes(layout, &canvas)
        canvas.raw("</g>\n")
        marks(layout, &canvas)
        receiverNames(layout, &canvas)
    }

    /// `<rect …` of the map's frame, its attributes left open.
    private func frame(_ layout: PlotLayout, _ canvas: inout SVGCanvas) {
        canvas.raw(#"<rect x=""#)
        canvas.number(Self.margin)
        canvas.raw(#"" y=""#)
        canvas.number(Self.top)
        canvas.raw(#"" width=""#)
        canvas.number(layout.mapWidth)
        canvas.raw(#"" height=""#)
        canvas.number(layout.mapHeight)
        canvas.raw("\"")
    }

    /// The track's lines, broken where `Track` breaks them; a point less than 0.75 px from the last
    /// one drawn is left out.
    private func lines(_ layout: PlotLayout, _ canvas: inout SVGCanvas) {
        let points = track.points
        let devices = layout.devices
        canvas.raw(##"<g id="track" fill="none" stroke="#555555" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round">"##)
        canvas.raw("\n")
        for line in track.lines where line.count > 1 {
            canvas.raw("<polyline ")
            if points[line[0]].accuracy == .reduced {
                canvas.raw(#"class="reduced" stroke=""#)
                canvas.raw(Self.reducedColour)
                canvas.raw(#"" "#)
            }
            // Only with several receivers: one receiver's plot stays as it was drawn before receivers were named.
            if devices.count > 1, let device = points[line[0]].device {
                canvas.raw(#"data-device=""#)
                canvas.xml(device)
                canvas.raw(#"" "#)
            }
            // Several receivers: each its own dash pattern (the first solid), so crossing tracks stay apart.
            let dashes = devices.firstIndex(of: points[line[0]].device).map { Self.dashes[$0 % Self.dashes.count] } ?? ""
            if devices.count > 1, !dashes.isEmpty { canvas.raw(#"stroke-dasharray="\#(dashes)" "#) }
            canvas.raw(#"points=""#)
            var lastX = -1e9, lastY = -1e9
            for i in line {
                let px = layout.x(i), py = layout.y(i)
                if i != line.last, abs(px - lastX) < 0.75 && abs(py - lastY) < 0.75 { continue }
                if lastX > -1e9 { canvas.byte(UInt8(ascii: " ")) }
                canvas.number(px)
                canvas.byte(UInt8(ascii: ","))
                canvas.number(py)
                lastX = px
                lastY = py
            }
            canvas.raw("\"/>\n")
        }
        canvas.raw("</g>\n")
    }

    /// The fixes drawn: by accuracy band (`bands.count`: unknown), and the grid cells apart; a
    /// point less than 1.5 px from the last one drawn in its colour is left out.
    private func drawnFixes(_ layout: PlotLayout) -> (byBand: [[Int]], reduced: [Int]) {
        let points = track.points
        var byBand = [[Int]](repeating: [], count: Self.bands.count + 1)
        var lastDrawn = [(x: Double, y: Double)?](repeating: nil, count: Self.bands.count + 1)
        var reduced: [Int] = []
        var lastReduced: (x: Double, y: Double)?
        for i in points.indices {
            if points[i].accuracy == .reduced {
                let px = layout.x(i), py = layout.y(i)
                if let last = lastReduced, (px - last.x) * (px - last.x) + (py - last.y) * (py - last.y) < 2.25 { continue }
                lastReduced = (px, py)
                reduced.append(i)
                continue
            }
            let band = Self.band(of: points[i].horizontalError)
            let px = layout.x(i), py = layout.y(i)
            if let last = lastDrawn[band], (px - last.x) * (px - last.x) + (py - last.y) * (py - last.y) < 2.25 { continue }
            lastDrawn[band] = (px, py)
            byBand[band].append(i)
        }
        return (byBand, reduced)
    }

    /// Each fix a dot coloured by its band, one group per band; each grid cell a hollow grey square.
    private func fixes(_ layout: PlotLayout, _ canvas: inout SVGCanvas) {
        let (byBand, reduced) = drawnFixes(layout)
        for (band, indices) in byBand.enumerated() where !indices.isEmpty {
            canvas.raw(#"<g fill=""#)
            canvas.raw(band < Self.bands.count ? Self.bands[band].colour : Self.unknownColour)
            canvas.raw("\">\n")
            for i in indices {
                canvas.raw(#"<circle cx=""#)
                canvas.number(layout.x(i))
                canvas.raw(#"" cy=""#)
                canvas.number(layout.y(i))
                canvas.raw(#"" r="2.5"/>"#)
                canvas.byte(0x0A)
            }
            canvas.raw("</g>\n")
        }
        guard !reduced.isEmpty else { return }
        canvas.raw(#"<g id="reduced" fill="none" stroke=""#)
        canvas.raw(Self.reducedColour)
        canvas.raw("\" stroke-width=\"1.5\">\n")
        for i in reduced {
            canvas.raw(#"<rect x=""#)
            canvas.number(layout.x(i) - 3)
            canvas.raw(#"" y=""#)
            canvas.number(layout.y(i) - 3)
            canvas.raw(#"" width="6" height="6"/>"#)
            canvas.byte(0x0A)
        }
        canvas.raw("</g>\n")
    }

    /// The start (a green ring) and the end (a red square), each with its time.
    private func marks(_ layout: PlotLayout, _ canvas: inout SVGCanvas) {
        let points = track.points
        guard !points.isEmpty else { return }
        let last = points.count - 1
        canvas.raw(#"<rect x=""#)
        canvas.number(layout.x(last) - 6)
        canvas.raw(#"" y=""#)
        canvas.number(layout.y(last) - 6)
        canvas.raw(##"" width="12" height="12" fill="none" stroke="#b2182b" stroke-width="3"><title>end "##)
        canvas.xml(UTCTime.format(points[last].time))
        canvas.raw("</title></rect>\n")
        canvas.raw(#"<circle cx=""#)
        canvas.number(layout.x(0))
        canvas.raw(#"" cy=""#)
        canvas.number(layout.y(0))
        canvas.raw(##"" r="7" fill="none" stroke="#1a9641" stroke-width="3"><title>start "##)
        canvas.xml(UTCTime.format(points[0].time))
        canvas.raw("</title></circle>\n")
        canvas.label("start", x: layout.x(0) + 10, y: layout.y(0) - 8)
        canvas.label("end", x: layout.x(last) + 10, y: layout.y(last) + 16)
    }

    /// Several receivers: each track named beside it — receiver k of n at the fix (k+1)/(n+1) of the
    /// way through its own, so tracks side by side are not named on top of each other.
    private func receiverNames(_ layout: PlotLayout, _ canvas: inout SVGCanvas) {
        let points = track.points
        let devices = layout.devices
        guard devices.count > 1 else { return }
        for (k, device) in devices.enumerated() {
            let mine = points.indices.filter { points[$0].device == device }
            guard !mine.isEmpty else { continue }
            let at = mine[min(mine.count - 1, mine.count * (k + 1) / (devices.count + 1))]
            canvas.label(device ?? "(unnamed)", x: layout.x(at) + 10, y: layout.y(at) + 4)
        }
    }
}
