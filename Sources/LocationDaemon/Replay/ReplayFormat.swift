import LocationCodecs
import LocationCore

/// What a replay input is, told by its first lines: the first line that is
/// not blank, not a `#` comment and not one of gpsd's greeting reports
/// (VERSION, DEVICES, DEVICE, WATCH, which `gpspipe -r` and `-R` captures
/// begin with too) decides — a JSON object makes it a gpsd JSON log
/// (`gpspipe -w`), anything else (`$`, `!`, stray bytes) an NMEA recording.
/// A file with no deciding line in its first `Replayer.chunkSize` bytes, or
/// none at all, is NMEA, as every input was before JSON logs were read.
public enum ReplayFormat: String, Sendable, Hashable {
    /// NMEA-0183 sentences (`NMEAParser`).
    case nmea = "NMEA"
    /// gpsd's JSON reports (`GPSDLogParser`).
    case gpsdJSON = "gpsd JSON"

    /// The format `head` (a file's first bytes) shows; `nil` when it does not
    /// tell yet and more may follow (`ended` false).
    static func detect(_ head: [UInt8], ended: Bool) -> ReplayFormat? {
        head.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
                let end = newline ?? bytes.count
                let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                let first = line.firstIndex { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }.map { line[$0] }
                // A line still being read decides only by a first byte that needs no more of it.
                if newline == nil && !ended && (first == nil || first == UInt8(ascii: "{") || first == UInt8(ascii: "#")) {
                    return nil
                }
                switch first {
                case nil, UInt8(ascii: "#")?:
                    break
                case UInt8(ascii: "{")?:
                    switch GPSDLogLine.decode(line) {
                    case .version, .device, .other("DEVICES"), .other("WATCH"): break
                    default: return .gpsdJSON
                    }
                default:
                    return .nmea
                }
                start = end + 1
            }
            return ended ? .nmea : nil
        }
    }
}
