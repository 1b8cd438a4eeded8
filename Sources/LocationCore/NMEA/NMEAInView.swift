/// Satellites in view, from GSV: the sky view's `seen` for an NMEA source.
///
/// `$xxGSV,total,number,inView,…[,signal]`: every talker (GP, GL, GA, GB, …)
/// reports its own constellation's satellites in view, and from NMEA 4.10 on
/// once per signal (L1, L5, …) with a signal id as the last field. The count
/// in view is the sum over talkers of each talker's largest count over its
/// signals (a satellite tracked on two signals is one satellite). A talker's
/// count stands until its next GSV. GSV takes no part in epochs: it is read
/// beside them, so a receiver's cycle and fixes are the same with or without it.
struct NMEAInView: Sendable {
    /// The latest count per talker and signal: `key` is the talker's two bytes
    /// and the signal id's first byte (0 without one).
    private var counts: [(key: UInt32, inView: Int)] = []

    init() {}

    /// Whether `tag` (`GPGSV`) names a GSV sentence.
    static func isGSV(_ tag: NMEAField) -> Bool {
        tag.count == 5 && tag[2] == UInt8(ascii: "G") && tag[3] == UInt8(ascii: "S") && tag[4] == UInt8(ascii: "V")
    }

    /// Takes one GSV; false when it is malformed (no readable count in view).
    mutating func take(_ f: NMEAFields) -> Bool {
        guard f.pieces >= 4, let inView = f[3].integer(), inView >= 0, inView <= 255 else { return false }
        let tag = f[0]
        // Four fields per satellite after the three of the header; one more is the signal id.
        let signal: UInt32 = (f.pieces - 4) % 4 == 1 ? UInt32(f[f.pieces - 1].first) : 0
        let key = UInt32(tag[0]) << 16 | UInt32(tag[1]) << 8 | signal
        if let index = counts.firstIndex(where: { $0.key == key }) {
            counts[index].inView = inView
        } else {
            counts.append((key, inView))
        }
        return true
    }

    /// Satellites in view over every talker, or `nil` before any GSV.
    var total: Int? {
        guard !counts.isEmpty else { return nil }
        var sum = 0
        for (index, entry) in counts.enumerated() {
            let talker = entry.key >> 8
            // Each talker once: at its first entry, its largest count over signals.
            guard counts.firstIndex(where: { $0.key >> 8 == talker }) == index else { continue }
            sum += counts.lazy.filter { $0.key >> 8 == talker }.map(\.inView).max() ?? 0
        }
        return sum
    }

    /// Forgets every count (another receiver may follow).
    mutating func reset() {
        counts.removeAll(keepingCapacity: true)
    }
}
