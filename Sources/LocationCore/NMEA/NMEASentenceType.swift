/// The NMEA sentence types the parser reads: the standard ones from any
/// talker, and SiRF's proprietary `$PSRFEPE` (estimated position errors).
enum NMEASentenceType: Sendable {
    case gga, rmc, gll, gns, gsa, gst, vtg, zda, psrfepe

    /// gpsd's minimum field count for each; shorter sentences are malformed.
    var minimumCount: Int {
        switch self {
        case .gga, .gns: 13
        case .rmc: 8
        case .gll: 7
        case .gsa: 18
        case .gst: 8
        case .vtg: 5
        case .zda: 4
        case .psrfepe: 8
        }
    }

    /// Types whose time field starts and delimits epochs. GST and ZDA carry a
    /// time too, but gpsd leaves them out of its cycle detection (GST refers
    /// to a GGA, ZDA may be sent on its own schedule), and so do we. PSRFEPE
    /// is in it, as in gpsd: SiRF sends it first in the cycle, with the
    /// epoch's time.
    var isTimed: Bool {
        switch self {
        case .gga, .rmc, .gll, .gns, .psrfepe: true
        case .gsa, .gst, .vtg, .zda: false
        }
    }

    /// Field holding the time of day, for timed types.
    var timeField: Int {
        self == .gll ? 5 : 1
    }

    /// The type named by a five-character tag (`GPGGA`): talker, then type;
    /// or the seven-character `PSRFEPE`.
    static func from(tag: NMEAField) -> NMEASentenceType? {
        if tag.count == 7 { return tag.equals("PSRFEPE") ? .psrfepe : nil }
        guard tag.count == 5 else { return nil }
        switch (tag[2], tag[3], tag[4]) {
        case (UInt8(ascii: "G"), UInt8(ascii: "G"), UInt8(ascii: "A")): return .gga
        case (UInt8(ascii: "R"), UInt8(ascii: "M"), UInt8(ascii: "C")): return .rmc
        case (UInt8(ascii: "G"), UInt8(ascii: "L"), UInt8(ascii: "L")): return .gll
        case (UInt8(ascii: "G"), UInt8(ascii: "N"), UInt8(ascii: "S")): return .gns
        case (UInt8(ascii: "G"), UInt8(ascii: "S"), UInt8(ascii: "A")): return .gsa
        case (UInt8(ascii: "G"), UInt8(ascii: "S"), UInt8(ascii: "T")): return .gst
        case (UInt8(ascii: "V"), UInt8(ascii: "T"), UInt8(ascii: "G")): return .vtg
        case (UInt8(ascii: "Z"), UInt8(ascii: "D"), UInt8(ascii: "A")): return .zda
        default: return nil
        }
    }

}
