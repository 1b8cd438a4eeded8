import LocationProtocol
import LocationValues

/// GeoJSON (RFC 7946) as a track: `export --format geojson --line`.
///
/// One Feature per track (a client's log is one track): a LineString of the
/// fixes in log order, or a MultiLineString with one line per segment when
/// `TrackSegmenter` splits the track (gaps, time going backwards, a change of
/// accuracy). Properties: `client`, `start` and `end` (the first and last
/// fix's time), `fixes`, and `coordTimes` — the time of every position,
/// shaped like the coordinates (an array, or an array per line), the
/// convention toGeoJSON and Mapbox use. A segment of a single fix is no line
/// (RFC 7946 asks for two positions or more): such fixes follow as one Point
/// or MultiPoint Feature of their own, with their `coordTimes`, so nothing in
/// the log is left out. Holds one track's coordinates while it is written.
public struct GeoJSONLineEncoder: ExportEncoder {
    private struct Segment {
        var coordinates: [UInt8] = []
        var times: [UInt8] = []
        var count = 0
    }

    private var segmenter: TrackSegmenter
    private var client = ""
    private var segments: [Segment] = []
    private var first = true

    /// An encoder that splits lines at `gap` seconds.
    public init(gap: Double = TrackSegmenter.defaultGap) { segmenter = TrackSegmenter(gap: gap) }

    /// Appends the FeatureCollection's start.
    public mutating func begin(into out: inout [UInt8]) { GeoJSONEncoder.appendCollectionStart(to: &out) }

    /// Adds one record to the current line (writing out the track before it when the client changes).
    public mutating func add(_ record: LogRecord, into out: inout [UInt8]) {
        switch segmenter.boundary(for: record) {
        case .newTrack:
            flush(into: &out)
            client = record.client
            segments = [Segment()]
        case .newSegment:
            segments.append(Segment())
        case .sameSegment:
            break
        }
        var segment = segments.removeLast()
        if segment.count > 0 {
            segment.coordinates.append(UInt8(ascii: ","))
            segment.times.append(UInt8(ascii: ","))
        }
        segment.coordinates.append(UInt8(ascii: "["))
        FixedDecimal.append(record.longitude, decimals: LogRecord.coordinateDecimals, to: &segment.coordinates)
        segment.coordinates.append(UInt8(ascii: ","))
        FixedDecimal.append(record.latitude, decimals: LogRecord.coordinateDecimals, to: &segment.coordinates)
        segment.coordinates.append(UInt8(ascii: "]"))
        segment.times.append(UInt8(ascii: "\""))
        ByteText.appendUTC(record.time, to: &segment.times)
        segment.times.append(UInt8(ascii: "\""))
        segment.count += 1
        segments.append(segment)
    }

    /// Writes the last track and closes the collection.
    public mutating func finish(into out: inout [UInt8]) {
        flush(into: &out)
        GeoJSONEncoder.appendCollectionEnd(empty: first, to: &out)
    }

    /// Writes the held track: its line feature, then its single fixes.
    private mutating func flush(into out: inout [UInt8]) {
        defer { segments = [] }
        let lines = segments.filter { $0.count > 1 }
        let points = segments.filter { $0.count == 1 }
        if !lines.isEmpty { feature(lines, line: true, into: &out) }
        if !points.isEmpty { feature(points, line: false, into: &out) }
    }

    /// One Feature: a LineString or MultiLineString of `parts`, or a Point or MultiPoint of single fixes.
    private mutating func feature(_ parts: [Segment], line: Bool, into out: inout [UInt8]) {
        if !first { ByteText.append(",\n", to: &out) }
        first = false
        let single = parts.count == 1
        let type = line ? (single ? "LineString" : "MultiLineString") : (single ? "Point" : "MultiPoint")
        ByteText.append(#"{"type":"Feature","geometry":{"type":""#, to: &out)
        ByteText.append(type, to: &out)
        ByteText.append(#"","coordinates":"#, to: &out)
        // LineString [[x,y],…]; MultiLineString [[[x,y],…],…]; Point [x,y]; MultiPoint [[x,y],…].
        // coordTimes has the lines' shape, and is a list of times for points.
        func list(_ part: KeyPath<Segment, [UInt8]>, wrapEach: Bool, wrapAll: Bool) {
            if wrapAll { out.append(UInt8(ascii: "[")) }
            for (i, segment) in parts.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if wrapEach { out.append(UInt8(ascii: "[")) }
                out.append(contentsOf: segment[keyPath: part])
                if wrapEach { out.append(UInt8(ascii: "]")) }
            }
            if wrapAll { out.append(UInt8(ascii: "]")) }
        }
        list(\.coordinates, wrapEach: line, wrapAll: !single)
        ByteText.append(#"},"properties":{"client":"#, to: &out)
        ByteText.appendJSONString(client, to: &out)
        ByteText.append(#","fixes":"#, to: &out)
        ByteText.append(parts.reduce(0) { $0 + $1.count }, to: &out)
        ByteText.append(#","start":"#, to: &out)
        out.append(contentsOf: firstTime(parts[0]))
        ByteText.append(#","end":"#, to: &out)
        out.append(contentsOf: lastTime(parts[parts.count - 1]))
        ByteText.append(#","coordTimes":"#, to: &out)
        list(\.times, wrapEach: line, wrapAll: !line || !single)
        ByteText.append("}}", to: &out)
    }

    private func firstTime(_ segment: Segment) -> ArraySlice<UInt8> {
        segment.times.prefix { $0 != UInt8(ascii: ",") }
    }

    private func lastTime(_ segment: Segment) -> ArraySlice<UInt8> {
        guard let comma = segment.times.lastIndex(of: UInt8(ascii: ",")) else { return segment.times[...] }
        return segment.times[(comma + 1)...]
    }
}
