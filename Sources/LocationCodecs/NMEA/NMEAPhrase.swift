/// One row of the NMEA phrase table: a sentence type the parser reads, what a sentence of it must
/// have, and its decoder. The table is the parser's whole vocabulary: a sentence whose tag names no
/// row is `ignored`; a new sentence type is one row here and one decoder (a method of
/// `NMEAEpochAssembler`, named by a `Decoder` case: the assembler's one exhaustive switch on it
/// says when a case has no method). `docs/nmea.md` §2 has the table in words.
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
    /// What reads the sentence's fields into the epoch in progress or the sky
    /// (`NMEAEpochAssembler.decode`). A name, not a closure: a row stays plain data, copied without
    /// reference counting (a closure per row cost the replay 4.7 % more instructions, measured; a
    /// C-like `@convention(thin)` function crashes the 6.3 compiler's optimizer).
    let decoder: Decoder

    /// The decoders, one per row.
    enum Decoder: Sendable {
        case gga, rmc, gsa, gsv, gll, gns, vtg, gst, zda, psrfepe
    }

    private init(
        _ name: String, _ minimumCount: Int, timed: Bool = false, timeField: Int = 1, inEpoch: Bool = true,
        datesLate: Bool = false, _ decoder: Decoder
    ) {
        self.name = Self.number(name.utf8)
        self.tagLength = name.utf8.count == 3 ? 5 : name.utf8.count
        self.minimumCount = minimumCount
        self.isTimed = timed
        self.timeField = timeField
        self.inEpoch = inEpoch
        self.datesLate = datesLate
        self.decoder = decoder
    }

    /// The table, as gpsd's `nmea_phrase[]`, with its minimum field counts; the most frequent first.
    static let table: [NMEAPhrase] = [
        NMEAPhrase("GGA", 13, timed: true, .gga),
        NMEAPhrase("RMC", 8, timed: true, datesLate: true, .rmc),
        NMEAPhrase("GSA", 18, .gsa),
        NMEAPhrase("GSV", 4, inEpoch: false, .gsv),
        NMEAPhrase("GLL", 7, timed: true, timeField: 5, .gll),
        NMEAPhrase("GNS", 13, timed: true, .gns),
        NMEAPhrase("VTG", 5, .vtg),
        NMEAPhrase("GST", 8, .gst),
        NMEAPhrase("ZDA", 4, datesLate: true, .zda),
        NMEAPhrase("PSRFEPE", 8, timed: true, .psrfepe),
    ]

    /// The row of a sentence's tag: a five-byte tag (`GPGGA`) by its last three bytes, from any
    /// talker; a longer one whole. Compares bytes: nothing is hashed or allocated.
    static func named(_ tag: NMEAField) -> NMEAPhrase? {
        let length = tag.count
        var name: UInt64 = 0
        if length == 5 {
            name = UInt64(tag[2]) << 16 | UInt64(tag[3]) << 8 | UInt64(tag[4])
        } else if length == 7 {
            for k in 0..<7 { name = name << 8 | UInt64(tag[k]) }
        } else {
            return nil
        }
        // The name alone tells the rows apart: a talker's three letters are below 2^24, a
        // proprietary tag's seven above 2^48.
        for row in table where row.name == name { return row }
        return nil
    }

    private static func number(_ bytes: String.UTF8View) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
