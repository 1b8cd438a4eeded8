/// What reads a track plot, under and beside the map: the north arrow, the scale bar, and the
/// legend (the accuracy bands with their counts, each receiver's dash pattern, the grid cells).
extension TrackPlot {
    /// The north arrow, top right of the map.
    func north(_ layout: PlotLayout, _ canvas: inout SVGCanvas) {
        let northX = Self.margin + layout.mapWidth - 22
        canvas.raw(##"<g id="north" fill="#333333"><path d="M "##)
        canvas.number(northX)
        canvas.byte(UInt8(ascii: " "))
        canvas.number(Self.top + 10)
        canvas.raw(" l 7 18 l -14 0 z\"/>")
        canvas.text("N", x: northX, y: Self.top + 42, attributes: #" font-size="13" text-anchor="middle""#)
        canvas.raw("</g>\n")
    }

    /// The scale bar, bottom left under the map; returns its y, which the legend goes under.
    func scaleBar(_ layout: PlotLayout, _ canvas: inout SVGCanvas) -> Double {
        let barMetres = Self.niceLength(below: layout.mapWidth / 4 / layout.scale)
        let barPixels = barMetres * layout.scale
        let barY = Self.top + layout.mapHeight + 26
        canvas.raw(#"<g id="scale"><rect x=""#)
        canvas.number(Self.margin)
        canvas.raw(#"" y=""#)
        canvas.number(barY)
        canvas.raw(#"" width=""#)
        canvas.number(barPixels)
        canvas.raw(##"" height="6" fill="#333333"/>"##)
        canvas.text(Self.lengthLabel(barMetres), x: Self.margin + barPixels + 8, y: barY + 7, attributes: #" font-size="13""#)
        canvas.raw("</g>\n")
        return barY
    }

    /// The legend, under the scale bar at `barY`: a row of accuracy bands, one of receivers when
    /// there are several, one for the grid cells when there are some.
    func legend(_ layout: PlotLayout, barY: Double, _ canvas: inout SVGCanvas) {
        let legendY = barY + 32
        canvas.raw(#"<g id="legend" font-size="13">"#)
        bandLegend(y: legendY, &canvas)
        if layout.devices.count > 1 { receiverLegend(layout, y: legendY, &canvas) }
        if layout.reducedCount > 0 { reducedLegend(layout, y: legendY + layout.receiverRow, &canvas) }
        canvas.raw("</g>\n")
    }

    /// The horizontal accuracy bands with how many full-accuracy fixes each holds (unknown only
    /// when some are).
    private func bandLegend(y legendY: Double, _ canvas: inout SVGCanvas) {
        var counts = [Int](repeating: 0, count: Self.bands.count + 1)
        for point in track.points where point.accuracy == .full { counts[Self.band(of: point.horizontalError)] += 1 }
        var legendX = Self.margin
        canvas.text("horizontal accuracy:", x: legendX, y: legendY + 4)
        canvas.byte(0x0A)
        legendX += 150
        for band in 0...Self.bands.count where band < Self.bands.count || counts[band] > 0 {
            let colour = band < Self.bands.count ? Self.bands[band].colour : Self.unknownColour
            let entry = (band < Self.bands.count ? Self.bands[band].label : "unknown") + " (\(counts[band]))"
            canvas.raw(#"<circle cx=""#)
            canvas.number(legendX + 5)
            canvas.raw(#"" cy=""#)
            canvas.number(legendY)
            canvas.raw(#"" r="5" fill=""#)
            canvas.raw(colour)
            canvas.raw(#""/>"#)
            canvas.text(entry, x: legendX + 14, y: legendY + 4)
            canvas.byte(0x0A)
            legendX += 30 + 7.5 * Double(entry.count)
        }
    }

    /// Which line is which: each receiver's dash pattern beside its name.
    private func receiverLegend(_ layout: PlotLayout, y legendY: Double, _ canvas: inout SVGCanvas) {
        canvas.text("receivers:", x: Self.margin, y: legendY + 26)
        canvas.byte(0x0A)
        var legendX = Self.margin + 150
        for (i, device) in layout.devices.enumerated() {
            let name = device ?? "(unnamed)"
            canvas.raw(##"<line class="receiver" stroke="#555555" stroke-width="1.5" "##)
            let dashes = Self.dashes[i % Self.dashes.count]
            if !dashes.isEmpty { canvas.raw(#"stroke-dasharray="\#(dashes)" "#) }
            canvas.raw(#"x1=""#)
            canvas.number(legendX)
            canvas.raw(#"" x2=""#)
            canvas.number(legendX + 28)
            canvas.raw(#"" y1=""#)
            canvas.number(legendY + 22)
            canvas.raw(#"" y2=""#)
            canvas.number(legendY + 22)
            canvas.raw(#""/>"#)
            canvas.text(name, x: legendX + 34, y: legendY + 26)
            canvas.byte(0x0A)
            legendX += 50 + 7.5 * Double(name.count)
        }
    }

    /// The grid cells: what they are and how many, those off the map counted so none is missing
    /// without a word.
    private func reducedLegend(_ layout: PlotLayout, y legendY: Double, _ canvas: inout SVGCanvas) {
        let points = track.points
        let outside = points.indices.count { points[$0].accuracy == .reduced && !layout.isOnMap($0) }
        let entry = "reduced accuracy: grid cells, not measured positions (\(layout.reducedCount)"
            + (outside > 0 ? ", \(outside) outside the map)" : ")")
        let legendX = Self.margin + 150
        canvas.raw(#"<rect x=""#)
        canvas.number(legendX + 2)
        canvas.raw(#"" y=""#)
        canvas.number(legendY + 19)
        canvas.raw(#"" width="6" height="6" fill="none" stroke=""#)
        canvas.raw(Self.reducedColour)
        canvas.raw(#"" stroke-width="1.5"/>"#)
        canvas.text(entry, x: legendX + 14, y: legendY + 26)
        canvas.byte(0x0A)
    }
}
