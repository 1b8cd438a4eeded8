import LocationProtocol
import LocationValues

/// Writes a delivered fix as NMEA 0183 sentences — `$GPRMC`, `$GPGGA` and
/// `$GPGSA`, each with its checksum and `\r\n` — for a client's
/// `nmea_socket` (GeoClue's `nmea-socket=` source, chart plotters).
///
/// Made from the client's log record, so a decoder reads back the log:
/// time to the millisecond, latitude and longitude as degrees and minutes
/// with 6 decimals of a minute (finer than the log's 1e-7°), altitude above
/// mean sea level to the millimetre, speed in knots and course to 3
/// decimals. What the record lacks (a reduced delivery's altitude, speed and
/// course) is left empty, as NMEA does for unknown fields. NMEA carries no
/// horizontal error estimate in these sentences, and no DOP is invented; an
/// unknown satellite count is written as the fewest the fix's mode needs
/// (3 for 2D, 4 for 3D), because decoders take a GGA without one as no fix.
public enum NMEAEncoder {
    /// Knots per metre per second.
    static let knotsPerMetrePerSecond = 3600.0 / 1852.0

    /// RMC, GGA and GSA for one record, in that order.
    public static func sentences(_ record: LogRecord) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(240)
        append(record, to: &out)
        return out
    }

    /// Appends RMC, GGA and GSA for one record.
    public static func append(_ record: LogRecord, to out: inout [UInt8]) {
        let days = Int((record.time / 86_400).rounded(.down))
        var secondOfDay = record.time - Double(days) * 86_400
        var day = days
        // Milliseconds that round up to the next day belong to it.
        if (secondOfDay * 1000).rounded() >= 86_400_000 {
            secondOfDay = 0
            day += 1
        }
        let date = UTCTime.civil(days: day)

        var rmc: [UInt8] = Array("GPRMC,".utf8)
        appendTime(secondOfDay, to: &rmc)
        ByteText.append(",A,", to: &rmc)
        appendPosition(record, to: &rmc)
        rmc.append(UInt8(ascii: ","))
        if let speed = record.speed, speed.isFinite {
            _ = FixedDecimal.append(speed * knotsPerMetrePerSecond, decimals: 3, minimumDecimals: 3, to: &rmc)
        }
        rmc.append(UInt8(ascii: ","))
        if let course = record.course, course.isFinite {
            _ = FixedDecimal.append(course, decimals: 3, minimumDecimals: 3, to: &rmc)
        }
        rmc.append(UInt8(ascii: ","))
        FixedDecimal.appendDecimal(UInt64(date.day), width: 2, to: &rmc)
        FixedDecimal.appendDecimal(UInt64(date.month), width: 2, to: &rmc)
        FixedDecimal.appendDecimal(UInt64((date.year % 100 + 100) % 100), width: 2, to: &rmc)
        ByteText.append(",,,A", to: &rmc)
        appendSentence(rmc, to: &out)

        var gga: [UInt8] = Array("GPGGA,".utf8)
        appendTime(secondOfDay, to: &gga)
        gga.append(UInt8(ascii: ","))
        appendPosition(record, to: &gga)
        ByteText.append(",1,", to: &gga)
        // Decoders (gpsd among them) take a GGA without satellites as no fix: when the count
        // is unknown, the fewest a fix of this mode needs stands in (3 for 2D, 4 for 3D).
        let satellites = record.satellites.flatMap { $0 > 0 ? $0 : nil } ?? (record.mode == .threeD ? 4 : 3)
        FixedDecimal.appendDecimal(UInt64(min(satellites, 99)), width: 2, to: &gga)
        ByteText.append(",,", to: &gga)
        if let altitude = record.altitude, altitude.isFinite {
            _ = FixedDecimal.append(altitude, decimals: 3, minimumDecimals: 3, to: &gga)
            ByteText.append(",M,,M,,", to: &gga)
        } else {
            ByteText.append(",,,,,", to: &gga)
        }
        appendSentence(gga, to: &out)

        var gsa: [UInt8] = Array("GPGSA,A,".utf8)
        ByteText.append(record.mode == .threeD ? 3 : 2, to: &gsa)
        ByteText.append(",,,,,,,,,,,,,,,", to: &gsa)
        appendSentence(gsa, to: &out)
    }

    /// `hhmmss.sss`.
    private static func appendTime(_ secondOfDay: Double, to out: inout [UInt8]) {
        let milliseconds = UInt64(max(0, (secondOfDay * 1000).rounded()))
        FixedDecimal.appendDecimal(milliseconds / 3_600_000, width: 2, to: &out)
        FixedDecimal.appendDecimal(milliseconds / 60_000 % 60, width: 2, to: &out)
        FixedDecimal.appendDecimal(milliseconds / 1000 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        FixedDecimal.appendDecimal(milliseconds % 1000, width: 3, to: &out)
    }

    /// `ddmm.mmmmmm,N,dddmm.mmmmmm,E`.
    private static func appendPosition(_ record: LogRecord, to out: inout [UInt8]) {
        appendAngle(abs(record.latitude), degreeDigits: 2, to: &out)
        ByteText.append(record.latitude < 0 ? ",S," : ",N,", to: &out)
        appendAngle(abs(record.longitude), degreeDigits: 3, to: &out)
        ByteText.append(record.longitude < 0 ? ",W" : ",E", to: &out)
    }

    private static func appendAngle(_ degrees: Double, degreeDigits: Int, to out: inout [UInt8]) {
        // In millionths of a minute, so the degrees carry when the minutes round up to 60.
        let micro = UInt64((degrees * 60_000_000).rounded())
        FixedDecimal.appendDecimal(micro / 60_000_000, width: degreeDigits, to: &out)
        let minutes = micro % 60_000_000
        FixedDecimal.appendDecimal(minutes / 1_000_000, width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        FixedDecimal.appendDecimal(minutes % 1_000_000, width: 6, to: &out)
    }

    /// `$BODY*HH\r\n`.
    private static func appendSentence(_ body: [UInt8], to out: inout [UInt8]) {
        var sum: UInt8 = 0
        for byte in body { sum ^= byte }
        out.append(UInt8(ascii: "$"))
        out.append(contentsOf: body)
        out.append(UInt8(ascii: "*"))
        let digits = Array("0123456789ABCDEF".utf8)
        out.append(digits[Int(sum >> 4)])
        out.append(digits[Int(sum & 0x0F)])
        out.append(contentsOf: [0x0D, 0x0A])
    }
}
