import Testing
import TestSupport
@testable import LocationProtocol
@testable import LocationValues
@testable import LocationTools

/// Records of a short walk with a gap, an accuracy change and a second client.
enum ExportSamples {
    static let t0 = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 23, minute: 50, second: 1)

    static func walk() -> [LogRecord] {
        var records: [LogRecord] = []
        for i in 0..<5 {  // segment 1: 1 s apart
            records.append(
                LogRecord(
                    time: t0 + Double(i), latitude: 52.3765432 + Double(i) * 1e-5, longitude: 4.8954321,
                    altitude: 3.5, horizontalError: 4.8, verticalError: 7.1, speed: 1.25, course: 359.9996,
                    mode: .threeD, satellites: 9, accuracy: .full, client: "logger"))
        }
        for i in 0..<3 {  // segment 2: after a 120 s gap, 2D, nothing optional
            records.append(
                LogRecord(
                    time: t0 + 124 + Double(i), latitude: -33.8678500, longitude: 151.2073200 - Double(i) * 1e-5,
                    mode: .twoD, accuracy: .full, client: "logger"))
        }
        // segment 3: reduced accuracy right after
        records.append(
            LogRecord(
                time: t0 + 128, latitude: -33.87, longitude: 151.21, horizontalError: 2000, mode: .twoD,
                accuracy: .reduced, client: "logger"))
        // a second track: another client with an awkward name
        records.append(
            LogRecord(time: t0 + 129, latitude: 0, longitude: 0, mode: .threeD, accuracy: .full, client: #"a<b>&"c",d'"#))
        return records
    }

    static func text(_ format: ExportFormat, gap: Double = TrackSegmenter.defaultGap) -> String {
        String(decoding: Exporter.document(walk(), format: format, gap: gap), as: UTF8.self)
    }
}

@Suite struct TrackSegmenterTests {
    @Test func splitsAtGapsBackwardTimeAccuracyAndClient() {
        var segmenter = TrackSegmenter(gap: 60)
        func record(_ t: Double, _ client: String = "a", _ accuracy: DeliveredAccuracy = .full) -> LogRecord {
            LogRecord(time: t, latitude: 0, longitude: 0, accuracy: accuracy, client: client)
        }
        #expect(segmenter.boundary(for: record(0)) == .newTrack)
        #expect(segmenter.boundary(for: record(60)) == .sameSegment)  // exactly the gap: still continuous
        #expect(segmenter.boundary(for: record(120.5)) == .newSegment)
        #expect(segmenter.boundary(for: record(100)) == .newSegment)  // backwards
        #expect(segmenter.boundary(for: record(101, "a", .reduced)) == .newSegment)
        #expect(segmenter.boundary(for: record(102, "a", .reduced)) == .sameSegment)
        #expect(segmenter.boundary(for: record(103, "b", .reduced)) == .newTrack)
        #expect(segmenter.trackCount == 2 && segmenter.segmentCount == 5 && segmenter.segmentInTrack == 1)
    }
}

@Suite struct ExportTests {
    @Test func gpxIsVersion11WithATrackPerClientAndSegmentsSplitAtGaps() throws {
        let gpx = ExportSamples.text(.gpx)
        #expect(gpx.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<gpx version="1.1" creator="locationd" xmlns="http://www.topografix.com/GPX/1/1""#))
        try XMLCheck.wellFormed(gpx)
        #expect(gpx.count(of: "<trk>") == 2)
        #expect(gpx.count(of: "<trkseg>") == 4)
        #expect(gpx.count(of: "<trkpt ") == 10)
        #expect(gpx.contains(#"<name>a&lt;b&gt;&amp;&quot;c&quot;,d&apos;</name>"#))
        // Schema order inside wptType: ele, time, …, fix, sat, …, extensions.
        #expect(gpx.contains(
            #"<trkpt lat="52.3765432" lon="4.8954321"><ele>3.5</ele><time>2026-03-14T23:50:01.000Z</time><fix>3d</fix><sat>9</sat><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.25</gpxtpx:speed><gpxtpx:course>0.0</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>"#
        ))
        #expect(gpx.contains(#"<trkpt lat="-33.8678500" lon="151.2073200"><time>2026-03-14T23:52:05.000Z</time><fix>2d</fix></trkpt>"#))
        #expect(gpx.hasSuffix("</gpx>\n"))
    }

    @Test func gapOptionChangesTheSplit() {
        #expect(ExportSamples.text(.gpx, gap: 600).count(of: "<trkseg>") == 3)  // only the accuracy change and the new client
        #expect(ExportSamples.text(.gpx, gap: 0.5).count(of: "<trkseg>") == 10)  // every point alone
    }

    @Test func emptyLogsGiveValidEmptyDocuments() throws {
        for format in ExportFormat.allCases {
            let text = String(decoding: Exporter.document([], format: format), as: UTF8.self)
            switch format {
            case .gpx, .kml: try XMLCheck.wellFormed(text)
            case .geojson: #expect(try JSONValue.parse(text)["features"]?.arrayValue?.isEmpty == true)
            case .csv: #expect(text == CSVEncoder.columns.joined(separator: ",") + "\n")
            }
        }
    }

    @Test func geojsonIsAFeatureCollectionOfPointsInLonLatOrder() throws {
        let value = try JSONValue.parse(ExportSamples.text(.geojson))
        #expect(value["type"] == "FeatureCollection")
        let features = try #require(value["features"]?.arrayValue)
        #expect(features.count == 10)
        let first = features[0]
        #expect(first["geometry"]?["type"] == "Point")
        #expect(first["geometry"]?["coordinates"] == [4.8954321, 52.3765432])
        let properties = try #require(first["properties"])
        #expect(properties["time"] == "2026-03-14T23:50:01.000Z")
        #expect(properties["client"] == "logger" && properties["accuracy"] == "full" && properties["mode"] == 3)
        #expect(properties["alt"] == 3.5 && properties["hAcc"] == 4.8 && properties["sats"] == 9)
        #expect(properties["course"] == 0.0 && properties["track"] == 1 && properties["segment"] == 1)
        #expect(features[5]["properties"]?["segment"] == 2)
        #expect(features[5]["properties"]?["alt"] == nil)
        #expect(features[8]["properties"]?["segment"] == 3 && features[8]["properties"]?["accuracy"] == "reduced")
        #expect(features[9]["properties"]?["client"] == #"a<b>&"c",d'"#)
        #expect(features[9]["properties"]?["track"] == 2)
    }

    @Test func kmlHasAFolderPerClientAndATimedTrackPerSegment() throws {
        let kml = ExportSamples.text(.kml)
        try XMLCheck.wellFormed(kml)
        #expect(kml.contains(#"<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">"#))
        #expect(kml.count(of: "<Folder>") == 2)
        #expect(kml.count(of: "<gx:Track>") == 4)
        #expect(kml.count(of: "<when>") == 10)
        #expect(kml.count(of: "<gx:coord>") == 10)
        #expect(kml.contains("<gx:coord>4.8954321 52.3765432 3.5</gx:coord>"))
        #expect(kml.contains("<gx:coord>151.2073200 -33.8678500</gx:coord>"))
        #expect(kml.contains("logger segment 3 (reduced accuracy)"))
        // Within each track every <when> comes before every <gx:coord>, as the gx schema requires.
        for track in kml.split(separator: "<gx:Track>").dropFirst() {
            let lastWhen = track.ranges(of: "<when>").last?.lowerBound
            let firstCoord = track.ranges(of: "<gx:coord>").first?.lowerBound
            if let lastWhen, let firstCoord { #expect(lastWhen < firstCoord) }
        }
    }

    @Test func csvUsesGPSLoggersColumnsAndQuotesWhereNeeded() throws {
        let csv = ExportSamples.text(.csv)
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "time,lat,lon,elevation,accuracy,bearing,speed,satellites,provider,hdop,vdop,pdop,geoidheight,ageofdgpsdata,dgpsid,activity,battery,annotation,timestamp_ms,time_offset,distance,starttimestamp_ms,profile_name,battery_charging,device")
        #expect(lines.count == 12 && lines[11].isEmpty)
        let t0ms = Int64(ExportSamples.t0 * 1000)
        #expect(lines[1] == "2026-03-14T23:50:01.000Z,52.3765432,4.8954321,3.5,4.8,0.0,1.25,9,gps,,,,,,,,,,\(t0ms),2026-03-14T23:50:01.000+00:00,,\(t0ms),logger,,")
        for line in lines[1...8] { #expect(line.split(separator: ",", omittingEmptySubsequences: false).count == 25, "\(line)") }
        #expect(lines[9].contains(",reduced,"))
        #expect(lines[10].hasSuffix(#","a<b>&""c"",d'",,"#))
        // A new client restarts the start timestamp.
        #expect(lines[10].contains(",\(t0ms + 129_000),\"a<b>"))
    }

    @Test func theXMLCheckCatchesMalformedDocuments() {
        for bad in ["<a><b></a></b>", "<a>", "<a x=\"1></a>", "<a>&nbsp;</a>", "<a></a><b></b>", "<a>\u{1}</a>"] {
            #expect(throws: XMLCheck.Failure.self) { try XMLCheck.wellFormed(bad) }
        }
        #expect(throws: Never.self) { try XMLCheck.wellFormed("<?xml version=\"1.0\"?><a x=\"&lt;\"><b/>t&amp;</a>") }
    }

    @Test func formatFromFileName() {
        #expect(ExportFormat(fileName: "walk.GPX") == .gpx)
        #expect(ExportFormat(fileName: "/tmp/x.json") == .geojson)
        #expect(ExportFormat(fileName: "a.kml") == .kml)
        #expect(ExportFormat(fileName: "a.csv") == .csv)
        #expect(ExportFormat(fileName: "a.txt") == nil)
        #expect(ExportFormat(fileName: "dir.gpx/file") == nil)
    }

    @Test func streamingInChunksGivesTheSameBytes() {
        for (format, line) in ExportFormat.allCases.map({ ($0, false) }) + [(.geojson, true)] {
            var encoder = Exporter.encoder(for: format, line: line)
            var written: [UInt8] = []
            var chunk: [UInt8] = []
            encoder.begin(into: &chunk)
            for record in ExportSamples.walk() {
                encoder.add(record, into: &chunk)
                written += chunk
                chunk.removeAll()
            }
            encoder.finish(into: &chunk)
            written += chunk
            #expect(written == Exporter.document(ExportSamples.walk(), format: format, line: line))
        }
    }
}

/// A small XML well-formedness check: balanced, properly nested tags,
/// quoted attributes, and only the five predefined entities.
enum XMLCheck {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func wellFormed(_ text: String) throws {
        let b = Array(text.utf8)
        var i = 0
        var stack: [String] = []
        var rootClosed = false
        func fail(_ why: String) -> Failure { Failure(description: "\(why) at byte \(i)") }
        while i < b.count {
            if b[i] == UInt8(ascii: "<") {
                guard let end = b[i...].firstIndex(of: UInt8(ascii: ">")) else { throw fail("unterminated tag") }
                let inner = String(decoding: b[(i + 1)..<end], as: UTF8.self)
                if inner.hasPrefix("?") {
                    // declaration
                } else if inner.hasPrefix("/") {
                    let name = String(inner.dropFirst())
                    guard stack.popLast() == name else { throw fail("</\(name)> does not close the open element") }
                    if stack.isEmpty { rootClosed = true }
                } else {
                    guard !rootClosed else { throw fail("content after the root element") }
                    let selfClosing = inner.hasSuffix("/")
                    let body = selfClosing ? String(inner.dropLast()) : inner
                    let name = String(body.prefix { $0 != " " && $0 != "\n" })
                    guard !name.isEmpty else { throw fail("empty tag name") }
                    var quote = false
                    for c in body.dropFirst(name.count) {
                        if c == "\"" { quote.toggle() }
                        if !quote, c == "<" || c == "&" { throw fail("bad character in tag") }
                    }
                    guard !quote else { throw fail("unbalanced quotes in <\(name)>") }
                    if !selfClosing { stack.append(name) }
                }
                i = end + 1
            } else if b[i] == UInt8(ascii: "&") {
                guard let end = b[i...].firstIndex(of: UInt8(ascii: ";")) else { throw fail("unterminated entity") }
                let entity = String(decoding: b[(i + 1)..<end], as: UTF8.self)
                guard ["amp", "lt", "gt", "quot", "apos"].contains(entity) else { throw fail("unknown entity &\(entity);") }
                i = end + 1
            } else {
                guard b[i] >= 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D else { throw fail("control character") }
                i += 1
            }
        }
        guard stack.isEmpty, rootClosed else { throw Failure(description: "unclosed elements: \(stack)") }
    }
}

extension String {
    /// Non-overlapping occurrences of `needle`.
    func count(of needle: String) -> Int { ranges(of: needle).count }
}

/// `export --format geojson --line`: the track as lines, times alongside.
@Suite struct GeoJSONLineTests {
    @Test func aTrackIsOneMultiLineStringSplitAtItsGapsAndSingleFixesArePoints() throws {
        let value = try JSONValue.parse(Exporter.document(ExportSamples.walk(), format: .geojson, line: true))
        #expect(value["type"] == "FeatureCollection")
        let features = try #require(value["features"]?.arrayValue)
        // logger: two lines (5 and 3 fixes, a 120 s gap between) and the lone reduced fix; the second client's one fix.
        try #require(features.count == 3)
        let line = features[0]
        #expect(line["geometry"]?["type"] == "MultiLineString")
        let lines = try #require(line["geometry"]?["coordinates"]?.arrayValue)
        #expect(lines.map { $0.arrayValue?.count } == [5, 3])
        #expect(lines[0].arrayValue?.first == [4.8954321, 52.3765432])
        #expect(lines[1].arrayValue?.last == [151.2073, -33.86785])
        let times = try #require(line["properties"]?["coordTimes"]?.arrayValue)
        #expect(times.map { $0.arrayValue?.count } == [5, 3])
        #expect(times[0].arrayValue?.first == "2026-03-14T23:50:01.000Z")
        #expect(line["properties"]?["start"] == "2026-03-14T23:50:01.000Z")
        #expect(line["properties"]?["end"] == "2026-03-14T23:52:07.000Z")
        #expect(line["properties"]?["client"] == "logger" && line["properties"]?["fixes"] == 8)
        let lone = features[1]
        #expect(lone["geometry"]?["type"] == "Point" && lone["geometry"]?["coordinates"] == [151.21, -33.87])
        #expect(lone["properties"]?["coordTimes"] == ["2026-03-14T23:52:09.000Z"])
        #expect(features[2]["properties"]?["client"] == #"a<b>&"c",d'"#)
    }

    @Test func withoutAGapItIsOneLineString() throws {
        let records = Array(ExportSamples.walk().prefix(5))
        let value = try JSONValue.parse(Exporter.document(records, format: .geojson, line: true))
        let feature = try #require(value["features"]?.arrayValue?.first)
        #expect(value["features"]?.arrayValue?.count == 1)
        #expect(feature["geometry"]?["type"] == "LineString")
        #expect(feature["geometry"]?["coordinates"]?.arrayValue?.count == 5)
        #expect(feature["properties"]?["coordTimes"]?.arrayValue?.count == 5)
        // An empty log is an empty collection.
        #expect(try JSONValue.parse(Exporter.document([], format: .geojson, line: true))["features"] == [])
    }
}
