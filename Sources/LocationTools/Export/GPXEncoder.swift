import LocationProtocol
import LocationValues

/// GPX 1.1 (topografix.com/GPX/1/1): a `<trk>` per client named after it,
/// a `<trkseg>` per segment (see `TrackSegmenter`), a `<trkpt>` per record
/// with `ele`, `time`, `src` (the receiver, when named), `fix`, `sat` in the schema's order, and speed and
/// course in Garmin's TrackPointExtension v2 (which gpsbabel and most
/// track tools read).
public struct GPXEncoder: ExportEncoder {
    private var segmenter: TrackSegmenter
    private var open = false

    /// An encoder that splits segments at `gap` seconds.
    public init(gap: Double = TrackSegmenter.defaultGap) {
        segmenter = TrackSegmenter(gap: gap)
    }

    /// Appends the XML declaration and the `<gpx>` start tag.
    public mutating func begin(into out: inout [UInt8]) {
        ByteText.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="locationd" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
            http://www.garmin.com/xmlschemas/TrackPointExtension/v2 http://www.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">

            """, to: &out)
    }

    /// Appends one `<trkpt>`, opening a track or segment first when due.
    public mutating func add(_ record: LogRecord, into out: inout [UInt8]) {
        switch segmenter.boundary(for: record) {
        case .newTrack:
            if open { ByteText.append("    </trkseg>\n  </trk>\n", to: &out) }
            ByteText.append("  <trk>\n    <name>", to: &out)
            ByteText.appendXML(record.client, to: &out)
            ByteText.append("</name>\n    <trkseg>\n", to: &out)
            open = true
        case .newSegment:
            ByteText.append("    </trkseg>\n    <trkseg>\n", to: &out)
        case .sameSegment:
            break
        }
        ByteText.append(#"      <trkpt lat=""#, to: &out)
        FixedDecimal.append(record.latitude, decimals: LogRecord.coordinateDecimals, to: &out)
        ByteText.append(#"" lon=""#, to: &out)
        FixedDecimal.append(record.longitude, decimals: LogRecord.coordinateDecimals, to: &out)
        ByteText.append("\">", to: &out)
        if let alt = record.altitude, alt.isFinite {
            ByteText.append("<ele>", to: &out)
            FixedDecimal.append(alt, decimals: LogRecord.measurementDecimals, minimumDecimals: 1, to: &out)
            ByteText.append("</ele>", to: &out)
        }
        ByteText.append("<time>", to: &out)
        ByteText.appendUTC(record.time, to: &out)
        ByteText.append("</time>", to: &out)
        // GPX's "source of data" element, in the schema's place (after time, before fix): the receiver.
        if let device = record.device {
            ByteText.append("<src>", to: &out)
            ByteText.appendXML(device, to: &out)
            ByteText.append("</src>", to: &out)
        }
        switch record.mode {
        case .twoD: ByteText.append("<fix>2d</fix>", to: &out)
        case .threeD: ByteText.append("<fix>3d</fix>", to: &out)
        case .unknown, .noFix: break
        }
        if let sats = record.satellites, sats >= 0 {
            ByteText.append("<sat>", to: &out)
            ByteText.append(sats, to: &out)
            ByteText.append("</sat>", to: &out)
        }
        let speed = record.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let course = record.course.flatMap { $0.isFinite ? $0 : nil }
        if speed != nil || course != nil {
            ByteText.append("<extensions><gpxtpx:TrackPointExtension>", to: &out)
            if let speed {
                ByteText.append("<gpxtpx:speed>", to: &out)
                FixedDecimal.append(speed, decimals: LogRecord.measurementDecimals, minimumDecimals: 1, to: &out)
                ByteText.append("</gpxtpx:speed>", to: &out)
            }
            if let course {
                ByteText.append("<gpxtpx:course>", to: &out)
                FixedDecimal.appendCourse(course, decimals: LogRecord.measurementDecimals, to: &out)
                ByteText.append("</gpxtpx:course>", to: &out)
            }
            ByteText.append("</gpxtpx:TrackPointExtension></extensions>", to: &out)
        }
        ByteText.append("</trkpt>\n", to: &out)
    }

    /// Closes the open track and the document.
    public mutating func finish(into out: inout [UInt8]) {
        if open { ByteText.append("    </trkseg>\n  </trk>\n", to: &out) }
        open = false
        ByteText.append("</gpx>\n", to: &out)
    }
}
