import Testing
@testable import LocationCore
import LocationTools

/// #29: exports name the receiver of each record that names one (GPX `<src>`, GeoJSON `device`),
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
