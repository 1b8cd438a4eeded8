import LocationProtocol

/// Decides where tracks and segments start while records stream past.
///
/// A new *track* starts at the first record and whenever the client changes
/// (a client's log holds one client, so that is one track). A new *segment*
/// starts when more than `gap` seconds pass between two records, when time
/// goes backwards (two logs concatenated), or when the delivered accuracy
/// changes (full and reduced positions are not one line). A segmenter made with
/// `splitsAtDevice` also starts a segment where the receiver (`device`) changes,
/// for formats that name the receiver once per segment (KML).
public struct TrackSegmenter: Sendable {
    /// The default gap: a minute without a delivery is a break in the track.
    public static let defaultGap: Double = 60

    /// Where a record falls.
    public enum Boundary: Sendable, Hashable {
        /// It starts a new track (and so a new segment).
        case newTrack
        /// It starts a new segment of the current track.
        case newSegment
        /// It continues the current segment.
        case sameSegment
    }

    /// Seconds between records that start a new segment.
    public var gap: Double
    /// Whether a change of receiver starts a new segment.
    public var splitsAtDevice: Bool
    private var last: (time: Double, client: String, accuracy: DeliveredAccuracy)?
    private var lastDevice: String?
    /// Tracks started so far (1-based number of the current one).
    public private(set) var trackCount = 0
    /// Segments started so far in all tracks.
    public private(set) var segmentCount = 0
    /// Segments started so far in the current track.
    public private(set) var segmentInTrack = 0

    /// A segmenter with the given gap (seconds, above 0), splitting at a change of receiver when `splitsAtDevice`.
    public init(gap: Double = TrackSegmenter.defaultGap, splitsAtDevice: Bool = false) {
        self.gap = gap > 0 && gap.isFinite ? gap : TrackSegmenter.defaultGap
        self.splitsAtDevice = splitsAtDevice
    }

    /// Where `record` falls, given the records before it.
    public mutating func boundary(for record: LogRecord) -> Boundary {
        let boundary = boundary(time: record.time, client: record.client, accuracy: record.accuracy)
        defer { lastDevice = record.device }
        guard boundary == .sameSegment, splitsAtDevice, record.device != lastDevice else { return boundary }
        segmentCount += 1
        segmentInTrack += 1
        return .newSegment
    }

    /// Where a record with this time, client and accuracy falls, given the records before it.
    public mutating func boundary(time: Double, client: String, accuracy: DeliveredAccuracy) -> Boundary {
        defer { last = (time, client, accuracy) }
        guard let last, last.client == client else {
            trackCount += 1
            segmentCount += 1
            segmentInTrack = 1
            return .newTrack
        }
        if time - last.time > gap || time < last.time || accuracy != last.accuracy {
            segmentCount += 1
            segmentInTrack += 1
            return .newSegment
        }
        return .sameSegment
    }
}
