import LocationValues

/// Satellites in view, from GSV: the sky view's `seen` and satellite list for
/// an NMEA source.
///
/// `$xxGSV,total,number,inView,{prn,elevation,azimuth,snr}×1…4[,signal[,system]]`:
/// every talker (GP, GL, GA, GB, …) reports its own constellation's
/// satellites in view over `total` sentences (a cycle), and from NMEA 4.10 on
/// once per signal (L1, L5, …) with a signal id as the last field. The count
/// in view is the sum over talkers of each talker's largest count over its
/// signals (a satellite tracked on two signals is one satellite); the list
/// holds each satellite once, with its strongest signal. A talker's count
/// stands until its next GSV, its list until its next complete cycle (a cycle
/// with a sentence missing or out of order is dropped). GSV takes no part in
/// epochs: it is read beside them, so a receiver's cycle and fixes are the
/// same with or without it.
struct NMEAInView: Sendable {
    private struct Entry {
        /// The talker's two bytes and the signal id's first byte (0 without one).
        var key: UInt32
        var inView: Int
        /// The last complete cycle's satellites.
        var satellites: [Satellite] = []
        /// The cycle being read, and the number of its last sentence (0: none under way).
        var building: [Satellite] = []
        var last = 0
    }

    private var entries: [Entry] = []
    /// Talker-and-signal pairs kept at most (a receiver has a few constellations of a few signals).
    static let maximumEntries = 32

    init() {}

    /// Takes one GSV (the phrase table's decoder; at least its four header fields). One without a
    /// readable count in view is left unread.
    mutating func take(_ f: NMEAFields) {
        guard f.pieces >= 4, let inView = f[3].integer(), inView >= 0, inView <= 255 else { return }
        let tag = f[0]
        // Four fields per satellite after the three of the header; one more is the signal id.
        let hasSignal = (f.pieces - 4) % 4 == 1
        let signal: UInt32 = hasSignal ? UInt32(f[f.pieces - 1].first) : 0
        let key = UInt32(tag[0]) << 16 | UInt32(tag[1]) << 8 | signal
        let index: Int
        if let found = entries.firstIndex(where: { $0.key == key }) {
            index = found
            entries[index].inView = inView
        } else {
            // Talkers and signals are few; garbled tags that pass the checksum must not grow this without end.
            guard entries.count < Self.maximumEntries else { return }
            entries.append(Entry(key: key, inView: inView))
            index = entries.count - 1
        }
        // Two more (Quectel's `$PQGSV`, NMEA 4.11's layout) are the signal and the system id,
        // which then names the constellation.
        let system = (f.pieces - 4) % 4 == 2 ? f[f.pieces - 1].integer() : nil
        let talker = NMEASatelliteNumbering.talker(systemID: system) ?? (tag[0], tag[1])
        readSatellites(f, talker: talker, groups: (f.pieces - 4) / 4, into: &entries[index])
    }

    /// Adds one sentence's satellites to its cycle; a cycle's last sentence makes it the list.
    private func readSatellites(_ f: NMEAFields, talker: (UInt8, UInt8), groups: Int, into entry: inout Entry) {
        guard let total = f[1].integer(), let number = f[2].integer(), (1...9).contains(total), (1...total).contains(number)
        else {
            entry.last = 0
            entry.building.removeAll()
            return
        }
        if number == 1 {
            entry.building.removeAll(keepingCapacity: true)
        } else if number != entry.last + 1 {
            // A sentence of this cycle was lost or came out of order: the cycle is not whole.
            entry.last = 0
            entry.building.removeAll()
            return
        }
        entry.last = number
        for g in 0..<min(groups, 4) {
            let k = 4 + 4 * g
            // A satellite without a number is skipped; its other values are unknown when unreadable.
            guard let prn = f[k].integer(), let id = NMEASatelliteNumbering.gpsd(talker: talker, number: prn) else { continue }
            let satellite = Satellite(
                prn: id.prn, gnssID: id.gnssID, svID: id.svID, elevation: f[k + 1].isEmpty ? nil : f[k + 1].decimal(),
                azimuth: f[k + 2].isEmpty ? nil : f[k + 2].decimal(), snr: f[k + 3].isEmpty ? nil : f[k + 3].decimal(),
                used: false)
            if let satellite, entry.building.count < SkyView.maximumSatellites { entry.building.append(satellite) }
        }
        if number == total {
            // Swapped, not copied: neither buffer is shared, so reading the next cycle allocates nothing.
            swap(&entry.satellites, &entry.building)
            entry.building.removeAll(keepingCapacity: true)
            entry.last = 0
        }
    }

    /// Satellites in view over every talker, or `nil` before any GSV.
    var total: Int? {
        guard !entries.isEmpty else { return nil }
        var sum = 0
        for (index, entry) in entries.enumerated() {
            let talker = entry.key >> 8
            // Each talker once: at its first entry, its largest count over signals.
            guard entries.firstIndex(where: { $0.key >> 8 == talker }) == index else { continue }
            sum += entries.lazy.filter { $0.key >> 8 == talker }.map(\.inView).max() ?? 0
        }
        return sum
    }

    /// Every talker's satellites of its last complete cycles, each satellite once (its strongest
    /// signal), marked used when `used` lists it.
    func satellites(used: NMEAUsedSatellites) -> [Satellite] {
        var list: [Satellite] = []
        for entry in entries {
            for var satellite in entry.satellites {
                satellite.used = used.contains(satellite.prn)
                if let same = list.firstIndex(where: { $0.prn == satellite.prn }) {
                    if (satellite.snr ?? -1) > (list[same].snr ?? -1) { list[same].snr = satellite.snr }
                } else if list.count < SkyView.maximumSatellites {
                    list.append(satellite)
                }
            }
        }
        return list
    }

    /// Forgets every count and list (another receiver may follow).
    mutating func reset() {
        entries.removeAll(keepingCapacity: true)
    }
}
