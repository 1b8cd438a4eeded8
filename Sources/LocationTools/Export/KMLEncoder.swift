import LocationProtocol
import LocationValues

/// KML 2.2 with Google's gx extension: a Folder per client, and per segment a
/// Placemark holding a `gx:Track` (a timed line: Google Earth shows it with
/// its time slider; gpsbabel and GDAL read it as a track). The schema puts
/// every `<when>` before every `<gx:coord>`, so the coordinates of the
/// current segment are held until the segment ends — the only buffering of
/// any export format. A change of receiver starts a new Placemark, which names
/// it in `<ExtendedData>` as `device` (GDAL/QGIS read it as a field).
public struct KMLEncoder: ExportEncoder {
    private var segmenter: TrackSegmenter
    private var coordinates: [UInt8] = []
    private var inFolder = false
    private var inTrack = false

    /// An encoder that splits segments at `gap` seconds.
    public init(gap: Double = TrackSegmenter.defaultGap) {
        segmenter = TrackSegmenter(gap: gap, splitsAtDevice: true)
    }

    /// Appends the XML declaration, `<kml>` and `<Document>`.
    public mutating func begin(into out: inout [UInt8]) {
        ByteText.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document>
              <name>locationd export</name>

            """, to: &out)
    }

    /// Appends one `<when>`, holding its `<gx:coord>` for the segment's end.
    public mutating func add(_ record: LogRecord, into out: inout [UInt8]) {
        switch segmenter.boundary(for: record) {
        case .newTrack:
            closeTrack(into: &out)
            if inFolder { ByteText.append("  </Folder>\n", to: &out) }
            ByteText.append("  <Folder>\n    <name>", to: &out)
            ByteText.appendXML(record.client, to: &out)
            ByteText.append("</name>\n", to: &out)
            inFolder = true
            openTrack(record, into: &out)
        case .newSegment:
            closeTrack(into: &out)
            openTrack(record, into: &out)
        case .sameSegment:
            break
        }
        ByteText.append("        <when>", to: &out)
        ByteText.appendUTC(record.time, to: &out)
        ByteText.append("</when>\n", to: &out)
        ByteText.append("        <gx:coord>", to: &coordinates)
        FixedDecimal.append(record.longitude, decimals: LogRecord.coordinateDecimals, to: &coordinates)
        coordinates.append(UInt8(ascii: " "))
        FixedDecimal.append(record.latitude, decimals: LogRecord.coordinateDecimals, to: &coordinates)
        if let alt = record.altitude, alt.isFinite {
            coordinates.append(UInt8(ascii: " "))
            FixedDecimal.append(alt, decimals: LogRecord.measurementDecimals, minimumDecimals: 1, to: &coordinates)
        }
        ByteText.append("</gx:coord>\n", to: &coordinates)
    }

    /// Closes the open segment, folder and document.
    public mutating func finish(into out: inout [UInt8]) {
        closeTrack(into: &out)
        if inFolder { ByteText.append("  </Folder>\n", to: &out) }
        inFolder = false
        ByteText.append("</Document>\n</kml>\n", to: &out)
    }

    private mutating func openTrack(_ record: LogRecord, into out: inout [UInt8]) {
        ByteText.append("    <Placemark>\n      <name>", to: &out)
        ByteText.appendXML(record.client, to: &out)
        ByteText.append(" segment \(segmenter.segmentInTrack)", to: &out)
        if record.accuracy == .reduced { ByteText.append(" (reduced accuracy)", to: &out) }
        ByteText.append("</name>\n", to: &out)
        // Feature order puts ExtendedData after the name, before the geometry.
        if let device = record.device {
            ByteText.append(#"      <ExtendedData><Data name="device"><value>"#, to: &out)
            ByteText.appendXML(device, to: &out)
            ByteText.append("</value></Data></ExtendedData>\n", to: &out)
        }
        ByteText.append("      <gx:Track>\n", to: &out)
        inTrack = true
    }

    private mutating func closeTrack(into out: inout [UInt8]) {
        guard inTrack else { return }
        out.append(contentsOf: coordinates)
        coordinates.removeAll(keepingCapacity: true)
        ByteText.append("      </gx:Track>\n    </Placemark>\n", to: &out)
        inTrack = false
    }
}
