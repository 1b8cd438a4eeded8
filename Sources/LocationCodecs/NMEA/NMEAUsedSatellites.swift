import LocationValues

/// The satellites the receiver's solution uses, from GSA's lists of PRNs:
/// the `used` flags of an NMEA source's sky view.
///
/// `GSA,auto,mode,prn×12,pdop,hdop,vdop[,system]`: a multi-constellation
/// receiver sends one GSA per constellation each epoch, named by its talker
/// (`GPGSA`, `GLGSA`) or by the NMEA 4.10 system id (`GNGSA,…,2`). Each
/// constellation's list stands until its next GSA; GSAs of one constellation
/// that follow one another (several `GNGSA` without a system id) make one list.
struct NMEAUsedSatellites: Sendable {
    /// gpsd's PRNs per constellation key (the talker's two bytes, or the system's).
    private var lists: [(key: UInt16, prns: [Int])] = []
    /// The key and sentence number of the last GSA read: a GSA right after it (the next number)
    /// goes on its list.
    private var run: (key: UInt16, sentence: Int)?

    init() {}

    /// Takes one GSA, the parser's sentence number `sentence` (every sentence decoded, of any type,
    /// has the next number). The PRNs go straight into their constellation's list, whose storage is kept
    /// from epoch to epoch: a GSA allocates nothing once each constellation has been seen (a new
    /// array per GSA was 9 % of a replay's instructions; docs/performance.md).
    mutating func take(_ f: NMEAFields, sentence: Int) {
        let tag = f[0]
        guard tag.count == 5 else { return }
        let system = f.pieces >= 19 ? f[18].integer() : nil
        let talker = NMEASatelliteNumbering.talker(systemID: system) ?? (tag[0], tag[1])
        let key = UInt16(talker.0) << 8 | UInt16(talker.1)
        let index: Int
        if let known = lists.firstIndex(where: { $0.key == key }) {
            index = known
        } else if lists.count < NMEAInView.maximumEntries {
            lists.append((key, []))
            index = lists.count - 1
        } else {
            run = (key, sentence)
            return
        }
        // The list is taken out while it is written: one uniqueness check, not two per PRN.
        var prns: [Int] = []
        swap(&prns, &lists[index].prns)
        defer { swap(&prns, &lists[index].prns) }
        // A run of GSAs makes one list; a garbled endless run stops growing.
        let continues = run.map { $0.key == key && $0.sentence == sentence - 1 } ?? false
        run = (key, sentence)
        if !continues {
            prns.removeAll(keepingCapacity: true)
        } else if prns.count >= SkyView.maximumSatellites {
            return
        }
        for k in 3..<15 {
            guard let number = f[k].integer(), let id = NMEASatelliteNumbering.gpsd(talker: talker, number: number) else {
                continue
            }
            prns.append(id.prn)
        }
    }

    /// Whether `prn` (gpsd's numbering) is in a list.
    func contains(_ prn: Int) -> Bool {
        lists.contains { $0.prns.contains(prn) }
    }

    /// Forgets every list (another receiver may follow).
    mutating func reset() {
        lists.removeAll(keepingCapacity: true)
        run = nil
    }
}
