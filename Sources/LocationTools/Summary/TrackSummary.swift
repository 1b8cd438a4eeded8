import LocationProtocol
import LocationValues

/// What a field test recorded: `locationctl summary LOG…` (docs/locationctl.1.md).
///
/// Figures are computed from a `Track` (the logs as one track in time order):
///
/// * `distance`: the sum of WGS-84 geodesic distances (`Geodesy`, the
///   engine's own) between consecutive records of one client and one
///   delivered accuracy, gaps included (a gap is bridged by the geodesic
///   between the records either side of it, and each gap says how far that
///   is); a change of client or accuracy is not a step along the track.
///   Each receiver (`device`) is its own track with its own distance
///   (`receivers`), never summed with another's: two receivers carried side by
///   side would double the figure, and their fixes interleaved would zigzag.
///   With several receivers `distance` is that of the one with the most fixes.
/// * `horizontalErrorMedian`, `horizontalError95`: percentiles of the
///   full-accuracy records' `hAcc`, by linear interpolation between closest ranks (as
///   numpy's default and Python's `statistics.quantiles(method="inclusive")`). A
///   reduced-accuracy record's `hAcc` is the size of its grid cell, not the
///   receiver's error, so it is not counted (#32): `accuracies[.reduced]` says how many.
/// * `rate`: records per second over the duration, `(fixes − 1) / duration`.
public struct TrackSummary: Sendable, Hashable {
    /// Records in the track (exact repeats not counted).
    public var fixes: Int
    /// The first record's time, when there is one.
    public var start: Double?
    /// The last record's time, when there is one.
    public var end: Double?
    /// Metres along the track (with several receivers, the one with the most fixes).
    public var distance: Double
    /// Each receiver's own track, in order of its first record.
    public var receivers: [ReceiverTrack]
    /// Gaps longer than `gapThreshold`.
    public var gaps: [Track.Gap]
    /// Seconds between two records that make a gap.
    public var gapThreshold: Double
    /// Full-accuracy records with a horizontal error estimate (reduced ones are grid cells, not errors).
    public var horizontalErrorCount: Int
    /// The median horizontal error estimate in metres.
    public var horizontalErrorMedian: Double?
    /// The 95th percentile of the horizontal error estimates in metres.
    public var horizontalError95: Double?
    /// The largest horizontal error estimate in metres.
    public var horizontalErrorMaximum: Double?
    /// Records per fix mode.
    public var modes: [FixMode: Int]
    /// Records per delivered accuracy.
    public var accuracies: [DeliveredAccuracy: Int]
    /// The clients, in order of first appearance.
    public var clients: [String]
    /// Bytes of the logs read.
    public var bytes: Int
    /// Lines that are not records (skipped).
    public var badLines: Int
    /// Heartbeat lines (`heartbeat`) in the logs: counted, not track points.
    public var heartbeats: Int = 0
    /// Records left out because they repeat one already counted.
    public var repeats: Int

    /// One receiver's track: how many records and how far.
    public struct ReceiverTrack: Sendable, Hashable {
        /// The receiver (`device`), or `nil` for records naming none.
        public var device: String?
        /// Its records.
        public var fixes: Int
        /// Metres along its track, gaps within one client and accuracy bridged.
        public var distance: Double
    }

    /// `end - start`, when there are records.
    public var duration: Double? {
        guard let start, let end else { return nil }
        return end - start
    }

    /// Records per second over the duration, when it is above zero.
    public var rate: Double? {
        guard let duration, duration > 0 else { return nil }
        return Double(fixes - 1) / duration
    }

    /// Bytes of log per hour of track, when the duration is above zero.
    public var bytesPerHour: Double? {
        guard let duration, duration > 0 else { return nil }
        return Double(bytes) / duration * 3600
    }

    /// The summary of `track`, read from `bytes` bytes of logs with `badLines` lines skipped.
    public init(_ track: Track, bytes: Int, badLines: Int = 0) {
        let points = track.points
        fixes = points.count
        start = points.first?.time
        end = points.last?.time
        gaps = track.gaps
        gapThreshold = track.gapThreshold
        clients = track.clients
        self.bytes = bytes
        self.badLines = badLines
        repeats = track.repeats
        var distances: [String?: Double] = [:]
        for line in track.lines where line.count > 1 {
            let device = points[line[0]].device
            for (a, b) in zip(line, line.dropFirst()) {
                distances[device, default: 0] += Track.distance(points[a], points[b])
            }
        }
        // Lines break at gaps too; the gaps within one client and accuracy are steps along the track.
        for gap in track.gaps { distances[gap.device, default: 0] += gap.distance ?? 0 }
        receivers = ReceiverGroups(points).groups.map { group in
            ReceiverTrack(device: group.device, fixes: group.points.count, distance: distances[group.device] ?? 0)
        }
        distance = receivers.max { $0.fixes < $1.fixes }?.distance ?? 0
        var modes: [FixMode: Int] = [:]
        var accuracies: [DeliveredAccuracy: Int] = [:]
        var errors: [Double] = []
        errors.reserveCapacity(points.count)
        for point in points {
            modes[point.mode, default: 0] += 1
            accuracies[point.accuracy, default: 0] += 1
            if let error = point.horizontalError, point.accuracy == .full { errors.append(error) }
        }
        self.modes = modes
        self.accuracies = accuracies
        errors.sort()
        horizontalErrorCount = errors.count
        horizontalErrorMedian = Self.percentile(errors, 0.5)
        horizontalError95 = Self.percentile(errors, 0.95)
        horizontalErrorMaximum = errors.last
    }

    /// The `p` quantile (0…1) of ascending `sorted` values, interpolating
    /// linearly between the closest ranks; `nil` for no values.
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double? {
        guard let first = sorted.first else { return nil }
        guard sorted.count > 1 else { return first }
        let rank = min(max(p, 0), 1) * Double(sorted.count - 1)
        let below = Int(rank.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        return sorted[below] + (sorted[above] - sorted[below]) * (rank - Double(below))
    }

    /// The JSON object `summary --json` prints (keys in docs/locationctl.1.md);
    /// unknown values are left out.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("fixes", .number(Double(fixes)))]
        if let start { members.append(("start", .string(UTCTime.format(start)))) }
        if let end { members.append(("end", .string(UTCTime.format(end)))) }
        if let duration { members.append(("duration_s", .number(Self.rounded(duration)))) }
        members.append(("distance_m", .number(Self.rounded(distance))))
        if receivers.contains(where: { $0.device != nil }) {
            members.append(
                (
                    "receivers",
                    .array(
                        receivers.map { r in
                            // A receiver left unnamed by its records has no `device` key (the JSON carries no nulls).
                            .object(
                                (r.device.map { [("device", JSONValue.string($0))] } ?? [])
                                    + [("fixes", .number(Double(r.fixes))), ("distance_m", .number(Self.rounded(r.distance)))])
                        })
                ))
        }
        members.append(("gap_threshold_s", .number(gapThreshold)))
        members.append(
            (
                "gaps",
                .array(
                    gaps.map { gap in
                        var entry: [(String, JSONValue)] = [
                            ("start", .string(UTCTime.format(gap.start))), ("end", .string(UTCTime.format(gap.end))),
                            ("seconds", .number(Self.rounded(gap.seconds))),
                        ]
                        if let d = gap.distance { entry.append(("distance_m", .number(Self.rounded(d)))) }
                        if let device = gap.device { entry.append(("device", .string(device))) }
                        return .object(entry)
                    })
            ))
        members.append(("hacc_count", .number(Double(horizontalErrorCount))))
        if let horizontalErrorMedian { members.append(("hacc_p50", .number(Self.rounded(horizontalErrorMedian)))) }
        if let horizontalError95 { members.append(("hacc_p95", .number(Self.rounded(horizontalError95)))) }
        if let horizontalErrorMaximum { members.append(("hacc_max", .number(Self.rounded(horizontalErrorMaximum)))) }
        members.append(
            ("modes", .object(Self.modeOrder.compactMap { mode in modes[mode].map { (Self.modeKey(mode), .number(Double($0))) } })))
        members.append(
            (
                "accuracy",
                .object(
                    [DeliveredAccuracy.full, .reduced].compactMap { a in accuracies[a].map { (a.rawValue, .number(Double($0))) } })
            ))
        members.append(("clients", .array(clients.map { .string($0) })))
        members.append(("bytes", .number(Double(bytes))))
        if let rate { members.append(("rate_hz", .number(Self.rounded(rate)))) }
        if let bytesPerHour { members.append(("bytes_per_hour", .number(bytesPerHour.rounded()))) }
        members.append(("bad_lines", .number(Double(badLines))))
        members.append(("heartbeats", .number(Double(heartbeats))))
        members.append(("repeats", .number(Double(repeats))))
        return .object(members)
    }

    /// Modes as reports list them: best first.
    static let modeOrder: [FixMode] = [.threeD, .twoD, .noFix, .unknown]

    /// `3d`, `2d`, `no-fix`, `unknown`: the JSON key of a mode.
    static func modeKey(_ mode: FixMode) -> String {
        switch mode {
        case .threeD: "3d"
        case .twoD: "2d"
        case .noFix: "no-fix"
        case .unknown: "unknown"
        }
    }

    /// Millimetres (or milliseconds): what the logs carry, no more.
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
