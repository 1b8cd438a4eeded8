import Testing
@testable import LocationProtocol
import LocationTools

/// #29: exports name the receiver of each record that names one (GPX `<src>`, GeoJSON `device`,
/// KML `ExtendedData` per Placemark, a CSV `device` column),
/// and records without one export as before.
@Suite struct ExportDeviceTests {
    static let records = [
        LogRecord(
            time: ExportSamples.t0, latitude: 35.68, longitude: 139.76, mode: .threeD, device: "/dev/tty<USB>0",
            accuracy: .full, client: "logger"),
        LogRecord(time: ExportSamples.t0 + 1, latitude: 35.68, longitude: 139.76, mode: .threeD, accuracy: .full, client: "logger"),
    ]

    static func text(_ format: ExportFormat) -> String {
        String(decoding: Exporter.document(records, format: format, gap: TrackSegmenter.defaultGap), as: UTF8.self)
    }

    @Test func gpxNamesTheReceiverInSrcBetweenTimeAndFix() {
        let gpx = Self.text(.gpx)
        #expect(gpx.contains("</time><src>/dev/tty&lt;USB&gt;0</src><fix>3d</fix>"), "\(gpx)")
        #expect(gpx.components(of: "<src>") == 1)
    }

    @Test func geojsonHasADeviceProperty() {
        let json = Self.text(.geojson)
        #expect(json.contains(#""device":"/dev/tty<USB>0""#), "\(json)")
        #expect(json.components(of: #""device""#) == 1)
    }

    @Test func kmlNamesTheReceiverOfEachPlacemarkAndStartsOneWhereItChanges() {
        let kml = Self.text(.kml)
        #expect(
            kml.contains(
                "<name>logger segment 1</name>\n      <ExtendedData><Data name=\"device\"><value>/dev/tty&lt;USB&gt;0</value></Data></ExtendedData>\n      <gx:Track>"),
            "\(kml)")
        #expect(kml.components(of: "<ExtendedData>") == 1)
        // The second record names no receiver: a segment of its own, with no ExtendedData.
        #expect(kml.components(of: "<Placemark>") == 2)
        #expect(kml.contains("<name>logger segment 2</name>\n      <gx:Track>"), "\(kml)")
    }

    @Test func csvHasADeviceColumnAfterGPSLoggers() {
        let lines = Self.text(.csv).split(separator: "\n").map(String.init)
        #expect(lines[0].hasSuffix(",profile_name,battery_charging,device"))
        #expect(lines[1].hasSuffix(",logger,,/dev/tty<USB>0"), "\(lines[1])")
        #expect(lines[2].hasSuffix(",logger,,"), "\(lines[2])")
        let comma = Exporter.document(
            [LogRecord(time: ExportSamples.t0, latitude: 1, longitude: 2, mode: .threeD, device: "/dev/a,b", accuracy: .full, client: "c")],
            format: .csv, gap: TrackSegmenter.defaultGap)
        #expect(String(decoding: comma, as: UTF8.self).hasSuffix(",c,,\"/dev/a,b\"\n"))
    }
}

extension String {
    /// How many times `part` occurs.
    fileprivate func components(of part: String) -> Int {
        var count = 0
        var rest = self[...]
        while let r = rest.firstRange(of: part) {
            count += 1
            rest = rest[r.upperBound...]
        }
        return count
    }
}
