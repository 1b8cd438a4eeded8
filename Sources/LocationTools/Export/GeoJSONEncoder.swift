import LocationProtocol
import LocationValues

/// GeoJSON (RFC 7946): a FeatureCollection with one Point feature per
/// record, coordinates `[lon, lat]`, and the record's fields as properties
/// (`time`, `client`, `accuracy`, `mode`, and `alt`, `hAcc`, `vAcc`,
/// `speed`, `course`, `sats`, `device` when known) plus `track` and `segment` numbers,
/// so QGIS's "Points to path" can draw the segments as lines. One feature
/// per line.
public struct GeoJSONEncoder: ExportEncoder {
    private var segmenter: TrackSegmenter
    private var first = true

    /// An encoder that numbers segments split at `gap` seconds.
    public init(gap: Double = TrackSegmenter.defaultGap) {
        segmenter = TrackSegmenter(gap: gap)
    }

    /// Appends the FeatureCollection's start.
    public mutating func begin(into out: inout [UInt8]) { Self.appendCollectionStart(to: &out) }

    /// The FeatureCollection's start, one feature per line after it (both GeoJSON exports).
    static func appendCollectionStart(to out: inout [UInt8]) {
        ByteText.append("{\"type\":\"FeatureCollection\",\"features\":[\n", to: &out)
    }

    /// The FeatureCollection's end, after no feature (`empty`) or a last feature line.
    static func appendCollectionEnd(empty: Bool, to out: inout [UInt8]) {
        ByteText.append(empty ? "]}\n" : "\n]}\n", to: &out)
    }

    /// Appends one Point feature.
    public mutating func add(_ record: LogRecord, into out: inout [UInt8]) {
        _ = segmenter.boundary(for: record)
        if !first { ByteText.append(",\n", to: &out) }
        first = false
        ByteText.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":["#, to: &out)
        FixedDecimal.append(record.longitude, decimals: LogRecord.coordinateDecimals, to: &out)
        out.append(UInt8(ascii: ","))
        FixedDecimal.append(record.latitude, decimals: LogRecord.coordinateDecimals, to: &out)
        ByteText.append(#"]},"properties":{"time":""#, to: &out)
        ByteText.appendUTC(record.time, to: &out)
        ByteText.append(#"","client":"#, to: &out)
        ByteText.appendJSONString(record.client, to: &out)
        ByteText.append(#","accuracy":""#, to: &out)
        ByteText.append(record.accuracy.rawValue, to: &out)
        ByteText.append(#"","mode":"#, to: &out)
        ByteText.append(record.mode.rawValue, to: &out)
        let measurements: [(String, Double?)] = [
            ("alt", record.altitude), ("hAcc", record.horizontalError), ("vAcc", record.verticalError),
            ("speed", record.speed),
        ]
        for (key, value) in measurements {
            guard let value, value.isFinite else { continue }
            ByteText.append(",\"\(key)\":", to: &out)
            FixedDecimal.append(value, decimals: LogRecord.measurementDecimals, minimumDecimals: 1, to: &out)
        }
        if let course = record.course, course.isFinite {
            ByteText.append(#","course":"#, to: &out)
            FixedDecimal.appendCourse(course, decimals: LogRecord.measurementDecimals, to: &out)
        }
        if let sats = record.satellites {
            ByteText.append(#","sats":"#, to: &out)
            ByteText.append(sats, to: &out)
        }
        if let device = record.device {
            ByteText.append(#","device":"#, to: &out)
            ByteText.appendJSONString(device, to: &out)
        }
        ByteText.append(#","track":"#, to: &out)
        ByteText.append(segmenter.trackCount, to: &out)
        ByteText.append(#","segment":"#, to: &out)
        ByteText.append(segmenter.segmentCount, to: &out)
        ByteText.append("}}", to: &out)
    }

    /// Closes the collection.
    public mutating func finish(into out: inout [UInt8]) {
        Self.appendCollectionEnd(empty: first, to: &out)
    }
}
