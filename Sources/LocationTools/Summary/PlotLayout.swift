/// Where a track plot's parts go on the page (`TrackPlot`): the map's size and scale in pixels,
/// the page's height, and each point's pixel.
struct PlotLayout {
    /// The points projected, and the extent the map shows.
    let projection: TrackPlot.Projection
    /// Pixels per metre.
    let scale: Double
    /// The map's width in pixels.
    let mapWidth: Double
    /// The map's height in pixels.
    let mapHeight: Double
    /// The page's height in pixels.
    let height: Double
    /// The track's receivers, in order of first appearance.
    let devices: [String?]
    /// The height of the legend's row naming the receivers (none for one receiver).
    let receiverRow: Double
    /// How many records are reduced-accuracy grid cells.
    let reducedCount: Int
    private let centreX: Double
    private let centreY: Double
    private let midEast: Double
    private let midNorth: Double

    /// The layout of `track`'s plot.
    init(_ track: Track) {
        let points = track.points
        // Grid cells do not set the extent while there is a measured position to show.
        projection = TrackPlot.Projection(points) { $0.accuracy == .full }
        reducedCount = points.count { $0.accuracy == .reduced }
        // Metres shown: the track's extent with 5 % room, at least 100 m across.
        let spanEast = max(projection.maxEast - projection.minEast, 1) * 1.1
        let spanNorth = max(projection.maxNorth - projection.minNorth, 1) * 1.1
        mapWidth = TrackPlot.width - 2 * TrackPlot.margin
        scale = min(min(mapWidth / spanEast, TrackPlot.mapHeight / spanNorth), mapWidth / 100)
        mapHeight = min(TrackPlot.mapHeight, max(spanNorth * scale, 160))
        // Several receivers: a legend line naming each line's dash pattern; and one for the grid cells.
        devices = track.devices
        receiverRow = devices.count > 1 ? 22.0 : 0
        height = TrackPlot.top + mapHeight + TrackPlot.bottom + receiverRow + (reducedCount > 0 ? 22 : 0)
        centreX = TrackPlot.margin + mapWidth / 2
        centreY = TrackPlot.top + mapHeight / 2
        midEast = (projection.minEast + projection.maxEast) / 2
        midNorth = (projection.minNorth + projection.maxNorth) / 2
    }

    /// Point `i`'s x in pixels.
    func x(_ i: Int) -> Double { centreX + (projection.east[i] - midEast) * scale }

    /// Point `i`'s y in pixels (north up).
    func y(_ i: Int) -> Double { centreY - (projection.north[i] - midNorth) * scale }

    /// Whether point `i` lies inside the map's frame (a grid cell far off may not).
    func isOnMap(_ i: Int) -> Bool {
        (TrackPlot.margin...(TrackPlot.margin + mapWidth)).contains(x(i)) && (TrackPlot.top...(TrackPlot.top + mapHeight)).contains(y(i))
    }
}
