import LocationProtocol
import LocationValues

/// CSV in GPSLogger for Android's layout (its current 24 columns), so tools
/// that read GPSLogger files read ours. Filled: `time` (ISO 8601 UTC),
/// `lat`, `lon`, `elevation`, `accuracy` (horizontal error, m), `bearing`
/// (course), `speed` (m/s), `satellites`, `provider` (`gps`), `annotation`
/// (`reduced` for reduced-accuracy records), `timestamp_ms`, `time_offset`
/// (the time with `+00:00`), `starttimestamp_ms` (the client's first record
/// in this export) and `profile_name` (the client), then one column of ours after
/// GPSLogger's, `device` (the receiver). Unknown values are empty.
public struct CSVEncoder: ExportEncoder {
    /// GPSLogger's header, in its order, then `device` (readers that know GPSLogger's columns skip it).
    public static let columns = [
        "time", "lat", "lon", "elevation", "accuracy", "bearing", "speed", "satellites", "provider", "hdop", "vdop",
        "pdop", "geoidheight", "ageofdgpsdata", "dgpsid", "activity", "battery", "annotation", "timestamp_ms",
        "time_offset", "distance", "starttimestamp_ms", "profile_name", "battery_charging", "device",
    ]

    private var start: (client: String, millis: Int64)?

    /// An encoder.
    public init() {}

    /// Appends the header line.
    public mutating func begin(into out: inout [UInt8]) {
        ByteText.append(Self.columns.joined(separator: ",") + "\n", to: &out)
    }

    /// Appends one row.
    public mutating func add(_ record: LogRecord, into out: inout [UInt8]) {
        let millis = Int64((min(max(record.time, UTCTime.earliest), UTCTime.latest) * 1000).rounded())
        if start?.client != record.client { start = (record.client, millis) }
        let comma = UInt8(ascii: ",")
        ByteText.appendUTC(record.time, to: &out)
        out.append(comma)
        FixedDecimal.append(record.latitude, decimals: LogRecord.coordinateDecimals, to: &out)
        out.append(comma)
        FixedDecimal.append(record.longitude, decimals: LogRecord.coordinateDecimals, to: &out)
        for value in [record.altitude, record.horizontalError] {
            out.append(comma)
            if let value { FixedDecimal.append(value, decimals: LogRecord.measurementDecimals, minimumDecimals: 1, to: &out) }
        }
        out.append(comma)
        if let course = record.course, course.isFinite {
            FixedDecimal.appendCourse(course, decimals: LogRecord.measurementDecimals, to: &out)
        }
        out.append(comma)
        if let speed = record.speed {
            FixedDecimal.append(speed, decimals: LogRecord.measurementDecimals, minimumDecimals: 1, to: &out)
        }
        out.append(comma)
        if let sats = record.satellites { ByteText.append(sats, to: &out) }
        // provider, then hdop … battery (8 empty columns), then annotation.
        ByteText.append(",gps,,,,,,,,,", to: &out)
        if record.accuracy == .reduced { ByteText.append("reduced", to: &out) }
        out.append(comma)
        ByteText.append(Int(millis), to: &out)
        out.append(comma)
        var iso: [UInt8] = []
        ByteText.appendUTC(record.time, to: &iso)
        out.append(contentsOf: iso.dropLast())  // drop the Z
        ByteText.append("+00:00,,", to: &out)  // offset, then distance (empty)
        ByteText.append(Int(start?.millis ?? millis), to: &out)
        out.append(comma)
        Self.appendField(record.client, to: &out)
        ByteText.append(",,", to: &out)  // battery_charging (empty), then device
        if let device = record.device { Self.appendField(device, to: &out) }
        out.append(UInt8(ascii: "\n"))
    }

    /// Nothing to close.
    public mutating func finish(into out: inout [UInt8]) {}

    /// RFC 4180: quote a field holding a comma, quote or line break; double its quotes.
    static func appendField(_ text: String, to out: inout [UInt8]) {
        let needsQuotes = text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else {
            ByteText.append(text, to: &out)
            return
        }
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            out.append(byte)
            if byte == UInt8(ascii: "\"") { out.append(byte) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
