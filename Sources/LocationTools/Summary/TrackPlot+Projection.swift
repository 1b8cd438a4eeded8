import Glibc
import LocationValues

extension TrackPlot {
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
}
