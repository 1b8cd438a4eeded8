import LocationCore

/// u-blox UBX messages for tests, framed and checksummed as a receiver sends them, and a
/// gpsfake log of them: what a u-blox M8T or F9P set up for post-processing sends on its port.
public enum UBXMessages {
    /// One UBX message: sync `B5 62`, class, id, little-endian length, payload, Fletcher checksum.
    public static func message(class kind: UInt8, id: UInt8, payload: [UInt8]) -> [UInt8] {
        let body = [kind, id] + le(UInt16(payload.count)) + payload
        var a: UInt8 = 0, b: UInt8 = 0
        for byte in body {
            a &+= byte
            b &+= a
        }
        return [0xB5, 0x62] + body + [a, b]
    }

    /// An `RXM-RAWX` message (class 0x02, id 0x15) of one epoch at `tow` seconds of GPS week
    /// 2410 (2026-03-15), four GPS satellites: what RTKLIB's `convbin -r ubx` makes RINEX of.
    public static func rawx(tow: Double) -> [UInt8] {
        var payload = le(tow.bitPattern) + le(UInt16(2410)) + [18, 4, 1, 1, 0, 0]
        for (sv, range) in [(5, 21_000_000.0), (12, 22_000_000.0), (25, 23_000_000.0), (29, 24_000_000.0)] {
            let pr = range + (tow - 36_000) * 100
            payload += le(pr.bitPattern) + le((pr / 0.19).bitPattern) + le(Float(100).bitPattern)
            payload += [0, UInt8(sv), 0, 0] + le(UInt16(1000)) + [45, 3, 3, 3, 0x07, 0]
        }
        return message(class: 0x02, id: 0x15, payload: payload)
    }

    /// An `INF-NOTICE` message (class 0x04, id 0x02) carrying `text`: a receiver's own words, which
    /// may read like anything, gpsd's JSON included.
    public static func notice(_ text: String) -> [UInt8] {
        message(class: 0x04, id: 0x02, payload: Array(text.utf8))
    }

    /// What a capture of `epochs` epochs from 36 000 s of the week holds: per epoch a `$GPTXT`
    /// sentence, an `RXM-RAWX` and an `INF-NOTICE` whose text is a gpsd `WATCH` object.
    public static func capture(epochs: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for k in 0..<epochs {
            bytes += Array(NMEALogWriter.line("GPTXT,01,01,02,u-blox epoch \(k)").utf8)
            bytes += rawx(tow: 36_000 + Double(k))
            bytes += notice(#"{"class":"WATCH","enable":true,"json":true}"# + "\r\n")
        }
        return bytes
    }

    /// Writes `capture(epochs:)` as a gpsfake log (a `#` header, then the bytes) at `path`, and
    /// returns the bytes, which are what gpsfake sends: its lexer takes every message whole. The
    /// first is an NMEA sentence: gpsfake 3.22 cannot show a log whose first packet is binary
    /// when gated (`-i`; its hexdump of Python 3 bytes fails).
    @discardableResult
    public static func writeLog(epochs: Int, to path: String) throws -> [UInt8] {
        let bytes = capture(epochs: epochs)
        try FileIO.write(path, Array("# Name: synthetic u-blox RXM-RAWX capture (locationd tests)\n".utf8) + bytes)
        return bytes
    }

    private static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
