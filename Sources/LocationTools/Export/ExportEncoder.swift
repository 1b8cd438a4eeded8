import LocationProtocol
import LocationValues

/// A streaming writer of one export format: `begin`, then `add` for each
/// record in log order, then `finish`. Each call appends bytes to `out`,
/// which the caller may write out and empty between calls, so an export
/// holds one record (and for KML one segment's coordinates) at a time.
public protocol ExportEncoder {
    /// Appends the document's start.
    mutating func begin(into out: inout [UInt8])
    /// Appends one record.
    mutating func add(_ record: LogRecord, into out: inout [UInt8])
    /// Appends the document's end.
    mutating func finish(into out: inout [UInt8])
}

extension ExportEncoder {
    /// The whole document for `records`, in memory (for tests and small logs).
    public mutating func document(_ records: some Sequence<LogRecord>) -> [UInt8] {
        var out: [UInt8] = []
        begin(into: &out)
        for record in records { add(record, into: &out) }
        finish(into: &out)
        return out
    }
}

/// The encoder for a format.
public enum Exporter {
    /// A fresh encoder for `format`, splitting segments at `gap` seconds;
    /// `line`: GeoJSON as a track (`GeoJSONLineEncoder`) instead of points.
    public static func encoder(
        for format: ExportFormat, gap: Double = TrackSegmenter.defaultGap, line: Bool = false
    ) -> any ExportEncoder {
        switch format {
        case .gpx: GPXEncoder(gap: gap)
        case .geojson: line ? GeoJSONLineEncoder(gap: gap) : GeoJSONEncoder(gap: gap)
        case .kml: KMLEncoder(gap: gap)
        case .csv: CSVEncoder()
        }
    }

    /// The whole document for `records` in `format`.
    public static func document(
        _ records: some Sequence<LogRecord>, format: ExportFormat, gap: Double = TrackSegmenter.defaultGap,
        line: Bool = false
    ) -> [UInt8] {
        var encoder = encoder(for: format, gap: gap, line: line)
        return encoder.document(records)
    }
}

extension FixedDecimal {
    /// Appends a course in degrees normalised to 0 ≤ c < 360 after rounding
    /// to `decimals` (359.9996 is written 0.0, not 360.0), trailing zeros
    /// trimmed to one decimal.
    static func appendCourse(_ course: Double, decimals: Int, to out: inout [UInt8]) {
        var c = course.truncatingRemainder(dividingBy: 360)
        if c < 0 { c += 360 }
        if let units = scaled(c, decimals: decimals) {
            var full: Int64 = 360
            for _ in 0..<decimals { full *= 10 }
            if units >= full { c = 0 }
        }
        append(c, decimals: decimals, minimumDecimals: 1, to: &out)
    }
}
