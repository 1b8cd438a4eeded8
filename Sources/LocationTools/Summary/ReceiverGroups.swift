/// A track's points split by the receiver that produced them (the records' `device`),
/// so figures that make sense only per receiver (accuracy against a mark, the scatter)
/// are not taken over two receivers' mixed fixes.
public struct ReceiverGroups: Sendable {
    /// One receiver's points.
    public struct Group: Sendable {
        /// The receiver's name (gpsd's device path), or `nil` for the records that name none.
        public var device: String?
        /// Its points, in the track's (time) order.
        public var points: [Track.Point]
    }

    /// The groups, in order of each receiver's first record.
    public private(set) var groups: [Group]

    /// `points` grouped by `device`; records without one form one group.
    public init(_ points: some Sequence<Track.Point>) {
        var groups: [Group] = []
        var index: [String?: Int] = [:]
        for point in points {
            if let i = index[point.device] {
                groups[i].points.append(point)
            } else {
                index[point.device] = groups.count
                groups.append(Group(device: point.device, points: [point]))
            }
        }
        self.groups = groups
    }
}
