/// One row of the NMEA phrase table: a sentence type the parser reads, what a sentence of it must
/// have, and its decoder. The table is the parser's whole vocabulary: a sentence whose tag names no
/// row is `ignored`; a new sentence type is one row here and one decoder (a method of
/// `NMEAEpochAssembler`). `docs/nmea.md` §2 has the table in words.
struct NMEAPhrase: Sendable {
    /// The type's letters as bytes in one number: the three after the talker (`GGA` of `GPGGA`), or
    /// the whole tag of a proprietary sentence (`PSRFEPE`).
    let name: UInt64
    /// Bytes of a tag of this type: 5 (talker and type) or the proprietary tag's length.
    let tagLength: Int
    /// gpsd's least field count (`NMEAFields.count`); shorter sentences are `malformed`.
    let minimumCount: Int
    /// Whether its time of day starts and delimits epochs. GST and ZDA carry a time too, but gpsd
    /// leaves them out of its cycle detection (GST refers to a GGA, ZDA may be sent on its own
    /// schedule), and so do we. PSRFEPE is in it, as in gpsd: SiRF sends it first in the cycle,
    /// with the epoch's time.
    let isTimed: Bool
    /// Field holding the time of day, for timed types.
    let timeField: Int
    /// Whether it belongs to epochs. A sentence read beside them (GSV: the sky only) takes no part
    /// in the receiver's cycle, so cycle and fixes are the same with or without it.
    let inEpoch: Bool
    /// Whether its date still counts when it arrives late (RMC, ZDA).
    let datesLate: Bool
    /// Reads the sentence's fields into the epoch in progress or the sky.
    let decode: @Sendable (inout NMEAEpochAssembler, NMEAFields) -> Void

    private init(
        _ name: String, _ minimumCount: Int, timed: Bool = false, timeField: Int = 1, inEpoch: Bool = true,
        datesLate: Bool = false, _ decode: @escaping @Sendable (inout NMEAEpochAssembler, NMEAFields) -> Void
    ) {
        self.name = Self.number(name.utf8)
        self.tagLength = name.utf8.count == 3 ? 5 : name.utf8.count
        self.minimumCount = minimumCount
        self.isTimed = timed
        self.timeField = timeField
        self.inEpoch = inEpoch
        self.datesLate = datesLate
        self.decode = decode
    }

    /// The table, as gpsd's `nmea_phrase[]`, with its minimum field counts; the most frequent first.
    static let table: [NMEAPhrase] = [
        NMEAPhrase("GGA", 13, timed: true) { $0.decodeGGA($1) },
        NMEAPhrase("RMC", 8, timed: true, datesLate: true) { $0.decodeRMC($1) },
        NMEAPhrase("GSA", 18) { $0.decodeGSA($1) },
        NMEAPhrase("GSV", 4, inEpoch: false) { $0.decodeGSV($1) },
        NMEAPhrase("GLL", 7, timed: true, timeField: 5) { $0.decodeGLL($1) },
        NMEAPhrase("GNS", 13, timed: true) { $0.decodeGNS($1) },
        NMEAPhrase("VTG", 5) { $0.decodeVTG($1) },
        // Recognised for the cycle; gpsd derives no estimate from it.
        NMEAPhrase("GST", 8) { _, _ in },
        NMEAPhrase("ZDA", 4, datesLate: true) { $0.decodeZDA($1) },
        NMEAPhrase("PSRFEPE", 8, timed: true) { $0.decodePSRFEPE($1) },
    ]

    /// The row of a sentence's tag: a five-byte tag (`GPGGA`) by its last three bytes, from any
    /// talker; a longer one whole. Compares bytes: nothing is hashed or allocated.
    static func named(_ tag: NMEAField) -> NMEAPhrase? {
        let length = tag.count
        guard length == 5 || length == 7 else { return nil }
        var name: UInt64 = 0
        for k in (length == 5 ? 2 : 0)..<length { name = name << 8 | UInt64(tag[k]) }
        let table = Self.table
        for k in table.indices where table[k].name == name && table[k].tagLength == length { return table[k] }
        return nil
    }

    private static func number(_ bytes: String.UTF8View) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
