import LocationProtocol
import LocationValues

/// The records of one or more coordinate logs (a log and its rotated
/// predecessors) as one track in time order, for `locationctl summary` and
/// `plot`.
///
/// Records are kept compactly (time, position, horizontal error, mode,
/// delivered accuracy, client, altitude, receiver) as they are added in any order; `build`
/// sorts them by time (records with equal times keep the order they were
/// added in), drops exact repeats (the same client, receiver, time and position twice,
/// as overlapping rotated files or a log given twice hold), and splits the
/// track where `TrackSegmenter` does: at gaps longer than the threshold, and
/// where the client or the delivered accuracy changes. Each receiver (`device`)
/// is its own track: lines and gaps are found among one receiver's points, so two
/// receivers' interleaved fixes never make one zigzag line.
public struct Track: Sendable {
    /// One record, as the summary and the plot need it.
    public struct Point: Sendable, Hashable {
        /// UTC seconds since 1970.
        public var time: Double
        /// Degrees north, WGS-84.
        public var latitude: Double
        /// Degrees east, WGS-84.
        public var longitude: Double
        /// Horizontal error estimate in metres, when the log has one.
        public var horizontalError: Double?
        /// 2D or 3D (any gpsd mode a log holds).
        public var mode: FixMode
        /// Full or reduced.
        public var accuracy: DeliveredAccuracy
        /// Index into `Track.clients`.
        public var client: Int
        /// Metres above mean sea level, when the log has one.
        public var altitude: Double? = nil
        /// The receiver the record names (`device`), when it names one.
        public var device: String? = nil
    }

    /// A stretch between two records more than the gap threshold apart.
    public struct Gap: Sendable, Hashable {
        /// The time of the last record before the gap.
        public var start: Double
        /// The time of the first record after it.
        public var end: Double
        /// The geodesic distance between those two records, in metres, when
        /// they belong to one line (same client and accuracy).
        public var distance: Double?
        /// The receiver both records came from (`nil` for records naming none).
        public var device: String? = nil
        /// `end - start`.
        public var seconds: Double { end - start }
    }

    /// The points in time order, exact repeats removed.
    public private(set) var points: [Point]
    /// The clients the records were delivered to, in order of first appearance.
    public private(set) var clients: [String]
    /// The lines, each the indices into `points` of one receiver's records in
    /// time order, ordered by their first index. Lines break at gaps and where
    /// the client or accuracy changes, and never join two receivers.
    public private(set) var lines: [[Int]]
    /// Gaps longer than `gapThreshold`, in time order.
    public private(set) var gaps: [Gap]
    /// Records left out because they repeat one already in the track.
    public private(set) var repeats: Int
    /// Seconds between two records that make a gap.
    public let gapThreshold: Double

    /// The track of `records`, taken in any order.
    public init(_ records: some Sequence<LogRecord>, gap: Double) {
        var builder = Builder()
        for record in records { builder.add(record) }
        self = builder.build(gap: gap)
    }

    fileprivate init(points: [Point], clients: [String], gap: Double, repeats: Int) {
        self.points = points
        self.clients = clients
        self.repeats = repeats
        gapThreshold = gap
        // One segmenter per receiver: a receiver's line continues across another's fixes in between.
        var segmenters: [String?: TrackSegmenter] = [:]
        var openLine: [String?: Int] = [:]
        var lines: [[Int]] = []
        var gaps: [Gap] = []
        for (index, point) in points.enumerated() {
            var segmenter = segmenters[point.device] ?? TrackSegmenter(gap: gap)
            let before = openLine[point.device].flatMap { lines[$0].last }.map { points[$0] }
            let boundary = segmenter.boundary(time: point.time, client: clients[point.client], accuracy: point.accuracy)
            segmenters[point.device] = segmenter
            if boundary == .sameSegment, let line = openLine[point.device] {
                lines[line].append(index)
            } else {
                openLine[point.device] = lines.count
                lines.append([index])
            }
            if let before, point.time - before.time > segmenter.gap {
                let sameLine = before.client == point.client && before.accuracy == point.accuracy
                gaps.append(
                    Gap(
                        start: before.time, end: point.time, distance: sameLine ? Self.distance(before, point) : nil,
                        device: point.device))
            }
        }
        self.lines = lines
        self.gaps = gaps
    }

    /// The receivers the points name, in order of first appearance (`nil` for points naming none).
    public var devices: [String?] { ReceiverGroups(points).groups.map(\.device) }

    /// WGS-84 geodesic distance between two points, in metres.
    public static func distance(_ a: Point, _ b: Point) -> Double {
        Geodesy.distance(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
    }

    /// Collects records in any order, then builds the track.
    public struct Builder: Sendable {
        private var points: [Point] = []
        private var clients: [String] = []
        private var clientIndex: [String: Int] = [:]

        /// An empty builder.
        public init() {}

        /// Records added so far.
        public var count: Int { points.count }

        /// Adds one record.
        public mutating func add(_ record: LogRecord) {
            let client: Int
            if let known = clientIndex[record.client] {
                client = known
            } else {
                client = clients.count
                clients.append(record.client)
                clientIndex[record.client] = client
            }
            points.append(
                Point(
                    time: record.time, latitude: record.latitude, longitude: record.longitude,
                    horizontalError: record.horizontalError.flatMap { $0.isFinite ? $0 : nil }, mode: record.mode,
                    accuracy: record.accuracy, client: client, altitude: record.altitude.flatMap { $0.isFinite ? $0 : nil },
                    device: record.device))
        }

        /// The track: points sorted by time (ties in the order added), exact
        /// repeats dropped, lines split at gaps longer than `gap` seconds.
        public func build(gap: Double) -> Track {
            let order = points.indices.sorted { a, b in
                points[a].time != points[b].time ? points[a].time < points[b].time : a < b
            }
            var sorted: [Point] = []
            sorted.reserveCapacity(points.count)
            var repeats = 0
            // Repeats have equal times, so they sit together in time order (not always next to each other).
            var sameTime: [Point] = []
            for index in order {
                let point = points[index]
                if let last = sameTime.last, last.time != point.time { sameTime.removeAll(keepingCapacity: true) }
                if sameTime.contains(where: {
                    $0.client == point.client && $0.latitude == point.latitude && $0.longitude == point.longitude
                        && $0.device == point.device
                }) {
                    repeats += 1
                    continue
                }
                sameTime.append(point)
                sorted.append(point)
            }
            return Track(points: sorted, clients: clients, gap: gap, repeats: repeats)
        }
    }
}
