/// An NMEA satellite number as gpsd numbers it (its SKY's `PRN`, `gnssid`,
/// `svid`): NMEA numbers satellites per talker (`GA` 1–36 is Galileo, `GP`
/// 65–96 GLONASS), gpsd once for all constellations. The same mapping is used
/// for GSV's satellites and GSA's lists of satellites used, so the two meet.
enum NMEASatelliteNumbering {
    /// `(prn, gnssid, svid)` for satellite `number` of talker `talker` (its two
    /// bytes, e.g. `GP`), gnssid and svid `nil` when the range is unknown; `nil`
    /// for a number no satellite has (0 or less, above 999).
    static func gpsd(talker: (UInt8, UInt8), number: Int) -> (prn: Int, gnssID: Int?, svID: Int?)? {
        guard number > 0, number <= 999 else { return nil }
        switch (talker.0, talker.1) {
        case (UInt8(ascii: "G"), UInt8(ascii: "L")) where number <= 32:
            return (number + 64, 6, number)
        case (UInt8(ascii: "G"), UInt8(ascii: "A")):
            if number <= 36 { return (300 + number, 2, number) }
            if (301...336).contains(number) { return (number, 2, number - 300) }
        case (UInt8(ascii: "G"), UInt8(ascii: "B")), (UInt8(ascii: "B"), UInt8(ascii: "D")):
            if number <= 63 { return (400 + number, 3, number) }
            if (201...263).contains(number) { return (200 + number, 3, number - 200) }
            if (401...463).contains(number) { return (number, 3, number - 400) }
        case (UInt8(ascii: "G"), UInt8(ascii: "Q")), (UInt8(ascii: "Q"), UInt8(ascii: "Z")):
            if number <= 10 { return (192 + number, 5, number) }
        case (UInt8(ascii: "G"), UInt8(ascii: "I")):
            if number <= 14 { return (number, 7, number) }
        default:
            break
        }
        // GPS's numbering, which GN and GP (and most receivers for every constellation) use.
        switch number {
        case 1...32: return (number, 0, number)
        case 33...64: return (number, 1, number + 87)
        case 65...96: return (number, 6, number - 64)
        case 120...158: return (number, 1, number)
        case 193...202: return (number, 5, number - 192)
        default: return (number, nil, nil)
        }
    }

    /// The talker a GSA's NMEA 4.10 system id stands for (1 GPS, 2 GLONASS, 3 Galileo,
    /// 4 BeiDou, 5 QZSS, 6 NavIC), `nil` for none or an unknown one.
    static func talker(systemID: Int?) -> (UInt8, UInt8)? {
        switch systemID {
        case 1: (UInt8(ascii: "G"), UInt8(ascii: "P"))
        case 2: (UInt8(ascii: "G"), UInt8(ascii: "L"))
        case 3: (UInt8(ascii: "G"), UInt8(ascii: "A"))
        case 4: (UInt8(ascii: "G"), UInt8(ascii: "B"))
        case 5: (UInt8(ascii: "G"), UInt8(ascii: "Q"))
        case 6: (UInt8(ascii: "G"), UInt8(ascii: "I"))
        default: nil
        }
    }
}
