import Glibc
import LocationValues

/// One receiver's accuracy against a reference (`summary --reference`, docs/locationctl.1.md).
///
/// Only full-accuracy records count: a reduced-accuracy record is a grid
/// cell, not the receiver's error, and is counted in `reducedExcluded`.
/// Horizontal error is the WGS-84 geodesic distance from the reference
/// (`Geodesy`); offsets east and north come from `LocalTangentPlane`.
///
/// * CEP50, CEP95, CEP99: percentiles of the horizontal errors, by the rule
///   of the hAcc percentiles (`TrackSummary.percentile`).
/// * 2DRMS: 2·√(mean of the squared errors).
/// * bias: the length and bearing (0–360° from north) of the mean east/north
///   offset; left out with `SurveyReference.mean`, where it is zero by construction.
/// * hAcc covers: the share of fixes with an hAcc whose error is at most that hAcc.
/// * vertical: |alt − ALT| over the fixes with an altitude, median and 95th
///   percentile, when the reference has an altitude.
/// * `mean`: the reference is the receiver's mean position: the mean of its
///   latitudes and of its longitudes (taken relative to its first fix, so the
///   antimeridian is no edge), and the mean of its altitudes.
/// * moved: 95 % of its fixes are not within `movedRadius` of their middle
///   (the median east and the median north); a receiver at rest stays within a
///   few metres (its CEP95: 2–5 m in the open, 10–20 m by buildings). Then the
///   figures above measure its path, not its error; `span` is how far apart its
///   fixes lie at most, the 5 % farthest from the middle left out.
public struct ReceiverAccuracy: Sendable, Hashable {
    /// The receiver (`nil`: the records that name none).
    public var device: String?
    /// Full-accuracy fixes measured.
    public var fixes: Int
    /// Reduced-accuracy records left out.
    public var reducedExcluded: Int
    /// The reference the errors are measured from (for `mean`, this receiver's mean).
    public var latitude: Double, longitude: Double, altitude: Double?
    /// Horizontal error percentiles in metres.
    public var cep50: Double?, cep95: Double?, cep99: Double?
    /// 2·√(mean squared horizontal error), metres.
    public var drms2: Double?
    /// Distance (metres) and bearing (degrees from north) of the mean offset from the reference.
    public var bias: Double?, biasBearing: Double?
    /// Fixes with an hAcc estimate, and the share of them whose error is within it.
    public var haccCount: Int, haccCovers: Double?
    /// Median and 95th percentile of |alt − reference altitude|, metres.
    public var verticalMedian: Double?, vertical95: Double?
    /// Each measured fix's metres east and north of the reference, in time order.
    public var offsets: [Offset]
    /// Metres between its two fixes farthest apart, the 5 % farthest from their middle left out.
    public var span: Double
    /// Whether it moved while it was measured (see above).
    public var moved: Bool
    /// The radius (metres) around their middle that 95 % of a receiver's fixes at rest stay within.
    public static let movedRadius = 25.0

    /// A fix's place relative to the reference.
    public struct Offset: Sendable, Hashable {
        /// Metres east and north.
        public var east: Double, north: Double
    }

    /// The figures of one receiver's `points` against `reference`.
    public init(device: String?, points: [Track.Point], reference: SurveyReference) {
        self.device = device
        let full = points.filter { $0.accuracy == .full }
        fixes = full.count
        reducedExcluded = points.count - full.count
        switch reference {
        case .mark(let lat, let lon, let alt):
            (latitude, longitude, altitude) = (lat, lon, alt)
        case .mean:
            (latitude, longitude, altitude) = Self.mean(full)
        }
        let plane = LocalTangentPlane(latitude: latitude, longitude: longitude)
        var errors: [Double] = [], vertical: [Double] = []
        var sumSquares = 0.0, sumEast = 0.0, sumNorth = 0.0
        var haccCount = 0, covered = 0
        offsets = []
        offsets.reserveCapacity(full.count)
        errors.reserveCapacity(full.count)
        for point in full {
            let error = Geodesy.distance(
                fromLatitude: latitude, longitude: longitude, toLatitude: point.latitude, longitude: point.longitude)
            errors.append(error)
            sumSquares += error * error
            let offset = plane.offset(latitude: point.latitude, longitude: point.longitude)
            offsets.append(Offset(east: offset.east, north: offset.north))
            sumEast += offset.east
            sumNorth += offset.north
            if let hAcc = point.horizontalError {
                haccCount += 1
                if error <= hAcc { covered += 1 }
            }
            if let alt = point.altitude, let altitude { vertical.append(abs(alt - altitude)) }
        }
        errors.sort()
        vertical.sort()
        cep50 = TrackSummary.percentile(errors, 0.5)
        cep95 = TrackSummary.percentile(errors, 0.95)
        cep99 = TrackSummary.percentile(errors, 0.99)
        let n = Double(full.count)
        drms2 = full.isEmpty ? nil : 2 * (sumSquares / n).squareRoot()
        if !full.isEmpty, reference != .mean {
            let east = sumEast / n, north = sumNorth / n
            bias = (east * east + north * north).squareRoot()
            let bearing = atan2(east, north) / Geodesy.degrees
            biasBearing = bearing < 0 ? bearing + 360 : bearing
        }
        self.haccCount = haccCount
        haccCovers = haccCount > 0 ? Double(covered) / Double(haccCount) : nil
        verticalMedian = TrackSummary.percentile(vertical, 0.5)
        vertical95 = TrackSummary.percentile(vertical, 0.95)
        (span, moved) = Self.movement(offsets)
    }

    /// `span` and `moved` of fixes at `offsets`: the span in two sweeps over the fixes kept (the
    /// one farthest from the first, then the distance to the one farthest from it).
    static func movement(_ offsets: [Offset]) -> (span: Double, moved: Bool) {
        guard offsets.count > 1 else { return (0, false) }
        let east = offsets.map(\.east).sorted(), north = offsets.map(\.north).sorted()
        let middle = Offset(east: east[east.count / 2], north: north[north.count / 2])
        func distance(_ a: Offset, _ b: Offset) -> Double { ((a.east - b.east) * (a.east - b.east) + (a.north - b.north) * (a.north - b.north)).squareRoot() }
        let fromMiddle = offsets.map { distance($0, middle) }
        let radius95 = TrackSummary.percentile(fromMiddle.sorted(), 0.95) ?? 0
        let kept = offsets.indices.filter { fromMiddle[$0] <= radius95 }.map { offsets[$0] }
        guard let first = kept.first else { return (0, false) }
        let far = kept.max { distance($0, first) < distance($1, first) } ?? first
        let span = kept.map { distance($0, far) }.max() ?? 0
        return (span, radius95 > movedRadius)
    }

    /// `/dev/ttyACM0 moved: its fixes lie up to 412 m apart; …` when it moved, else `nil`.
    public var movedWarning: String? {
        guard moved else { return nil }
        return "\(device ?? "the unnamed receiver") moved: its fixes lie up to \(SummaryRenderer.length(span)) apart; "
            + "CEP, 2DRMS and bias measure how far fixes fall from one point, and mean nothing for a receiver that moved"
    }

    /// The mean latitude, longitude (near the first fix's) and altitude of `points` (0, 0 for none).
    static func mean(_ points: [Track.Point]) -> (Double, Double, Double?) {
        guard let first = points.first else { return (0, 0, nil) }
        var lat = 0.0, lon = 0.0, alt = 0.0, alts = 0
        for point in points {
            lat += point.latitude
            var d = (point.longitude - first.longitude).remainder(dividingBy: 360)
            if d == -180 { d = 180 }
            lon += d
            if let a = point.altitude {
                alt += a
                alts += 1
            }
        }
        let n = Double(points.count)
        var meanLon = (first.longitude + lon / n).remainder(dividingBy: 360)
        if meanLon == -180 { meanLon = 180 }
        return (lat / n, meanLon, alts > 0 ? alt / Double(alts) : nil)
    }

    /// The figures of every receiver in `track`, in order of first record.
    public static func all(_ track: Track, reference: SurveyReference) -> [ReceiverAccuracy] {
        ReceiverGroups(track.points).groups.map { ReceiverAccuracy(device: $0.device, points: $0.points, reference: reference) }
    }
}
