
/// The formats `locationctl export` writes (docs/export.md).
public enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    /// GPX 1.1: one track per client, segments split at gaps.
    case gpx
    /// GeoJSON (RFC 7946): a FeatureCollection of Point features.
    case geojson
    /// KML 2.2: a gx:Track per segment, in a Folder per client.
    case kml
    /// CSV with GPSLogger for Android's header.
    case csv

    /// The usual file name extension.
    public var fileExtension: String { rawValue }

    /// The format a file name's extension names (`track.GPX`, `x.json`), if any.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "gpx": self = .gpx
        case "geojson", "json": self = .geojson
        case "kml": self = .kml
        case "csv": self = .csv
        default: return nil
        }
    }
}
