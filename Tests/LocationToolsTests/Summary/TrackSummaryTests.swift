import Glibc
import Foundation
import Testing
@testable import LocationProtocol
@testable import LocationValues
@testable import LocationTools

/// `locationctl summary`'s figures against ones worked out here by other
/// means: hand-counted gaps and percentiles, and distances as sums of ECEF
/// chords (for steps of metres a chord is the geodesic to far below 0.1 %).
@Suite struct TrackSummaryTests {
    static let t0 = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 9, minute: 30, second: 0)

    static func record(_ t: Double, _ lat: Double, _ lon: Double, hAcc: Double? = 2, accuracy: DeliveredAccuracy = .full, mode: FixMode = .threeD) -> LogRecord {
        LogRecord(time: t0 + t, latitude: lat, longitude: lon, horizontalError: hAcc, mode: mode, accuracy: accuracy, client: "logger")
    }

    /// The straight-line distance through the Earth between two points on the
    /// WGS-84 ellipsoid, from the textbook geodetic → ECEF formulas.
    static func chord(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        func ecef(_ p: (Double, Double)) -> (Double, Double, Double) {
            let a = 6_378_137.0, f = 1 / 298.257_223_563
            let e2 = f * (2 - f)
            let phi = p.0 * .pi / 180, lambda = p.1 * .pi / 180
            let n = a / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
            return (n * cos(phi) * cos(lambda), n * cos(phi) * sin(lambda), n * (1 - e2) * sin(phi))
        }
        let p = ecef(a), q = ecef(b)
        return ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
    }

    /// Ten seconds of fixes, a 16 s gap, two more, a 34 s gap, one more.
    static func gappy() -> [LogRecord] {
        var records = (0..<10).map { record(Double($0), 35.68 + Double($0) * 1e-5, 139.76) }
        records += [record(25, 35.6802, 139.76), record(26, 35.68021, 139.76), record(60, 35.6803, 139.7601)]
        return records
    }

    @Test func gapsAreTheStretchesLongerThanTheThresholdWithTheirTimes() {
        let summary = TrackSummary(Track(Self.gappy(), gap: 10), bytes: 0)
        #expect(summary.fixes == 13)
        #expect(summary.gaps.map(\.start) == [Self.t0 + 9, Self.t0 + 26])
        #expect(summary.gaps.map(\.end) == [Self.t0 + 25, Self.t0 + 60])
        #expect(summary.gaps.map(\.seconds) == [16, 34])
        #expect(summary.start == Self.t0 && summary.end == Self.t0 + 60 && summary.duration == 60)
        // A 16 s gap is no gap at --gap 20; 10 s exactly is not more than 10.
        #expect(TrackSummary(Track(Self.gappy(), gap: 20), bytes: 0).gaps.map(\.seconds) == [34])
        let even = (0..<5).map { Self.record(Double($0) * 10, 35.68, 139.76 + Double($0) * 1e-5) }
        #expect(TrackSummary(Track(even, gap: 10), bytes: 0).gaps.isEmpty)
    }

    @Test func distanceIsTheGeodesicSumAcrossGapsButNotAcrossAccuracyChanges() {
        let records = Self.gappy()
        var expected = 0.0
        for i in 1..<records.count {
            expected += Self.chord((records[i - 1].latitude, records[i - 1].longitude), (records[i].latitude, records[i].longitude))
        }
        let summary = TrackSummary(Track(records, gap: 10), bytes: 0)
        #expect(abs(summary.distance - expected) / expected < 1e-3)
        let jumps = summary.gaps.compactMap(\.distance)
        #expect(jumps.count == 2)
        #expect(abs(jumps[0] - Self.chord((35.68009, 139.76), (35.6802, 139.76))) < 0.01)
        // A reduced fix in the middle is not a step along the full-accuracy track.
        var mixed = records
        mixed.insert(Self.record(9.5, 35.69, 139.77, hAcc: 2000, accuracy: .reduced), at: 10)
        let withReduced = TrackSummary(Track(mixed, gap: 10), bytes: 0)
        let skipped = Self.chord((35.68009, 139.76), (35.6802, 139.76))
        #expect(abs(withReduced.distance - (expected - skipped)) / expected < 1e-3)
        #expect(withReduced.accuracies == [.full: 13, .reduced: 1])
    }

    @Test func percentilesInterpolateBetweenClosestRanks() {
        // 1 … 20 m: median 10.5; p95 at rank 0.95 × 19 = 18.05 → 19.05.
        let records = (1...20).reversed().map { Self.record(Double($0), 35.68, 139.76 + Double($0) * 1e-5, hAcc: Double($0)) }
        let summary = TrackSummary(Track(records, gap: 10), bytes: 0)
        #expect(summary.horizontalErrorMedian == 10.5)
        #expect(abs((summary.horizontalError95 ?? 0) - 19.05) < 1e-9)
        #expect(summary.horizontalErrorMaximum == 20)
        #expect(TrackSummary.percentile([], 0.5) == nil)
        #expect(TrackSummary.percentile([7], 0.95) == 7)
        // Records without an estimate are not counted in the percentiles.
        let some = [Self.record(0, 1, 1, hAcc: nil), Self.record(1, 1, 1.00001, hAcc: 4), Self.record(2, 1, 1.00002, hAcc: 6)]
        let partial = TrackSummary(Track(some, gap: 10), bytes: 0)
        #expect(partial.horizontalErrorCount == 2 && partial.horizontalErrorMedian == 5)
    }

    /// #32: a reduced record's hAcc is its grid cell, not the receiver's error: it stays out of
    /// the accuracy figures and is shown apart.
    @Test func reducedAccuracyRecordsAreNotInTheAccuracyFiguresAndAreShownApart() {
        let records = [
            Self.record(0, 35.68, 139.76, hAcc: 3), Self.record(1, 35.68, 139.76001, hAcc: 5),
            Self.record(2, 35.69, 139.77, hAcc: 3000, accuracy: .reduced),
        ]
        let summary = TrackSummary(Track(records, gap: 10), bytes: 0)
        #expect(summary.horizontalErrorCount == 2 && summary.horizontalErrorMedian == 4 && summary.horizontalErrorMaximum == 5)
        let text = SummaryRenderer.render(summary, files: ["a.jsonl"])
        #expect(text.contains("reduced accuracy: 1 record (grid cells, not receiver errors; not in the accuracy figures)"), "\(text)")
        #expect(text.contains("of the 2 full-accuracy records only"), "\(text)")
    }

    @Test func rotatedFilesInAnyOrderAreOneTrackAndRepeatsCountOnce() {
        let records = Self.gappy()
        let older = Array(records[..<7]), newer = Array(records[7...])
        let inOrder = TrackSummary(Track(records, gap: 10), bytes: 100)
        let reversed = TrackSummary(Track(newer + older, gap: 10), bytes: 100)
        #expect(reversed == inOrder)
        // A copytruncate overlap: the last three older records again at the start of the newer file.
        let overlapping = TrackSummary(Track(older + Array(older.suffix(3)) + newer, gap: 10), bytes: 100)
        #expect(overlapping.fixes == 13 && overlapping.repeats == 3)
        #expect(overlapping.distance == inOrder.distance)
    }

    @Test func modesRateAndJSONKeys() {
        var records = Self.gappy()
        records[3].mode = .twoD
        let summary = TrackSummary(Track(records, gap: 10), bytes: 3600)
        #expect(summary.modes == [.threeD: 12, .twoD: 1])
        #expect(summary.rate == 12.0 / 60)
        #expect(abs((summary.bytesPerHour ?? 0) - 3600 * 60) < 1e-6)
        guard case .object(let members) = summary.json else {
            Issue.record("not an object")
            return
        }
        let keys = members.map(\.0)
        for key in ["fixes", "start", "end", "distance_m", "gaps", "hacc_p50", "hacc_p95", "bytes", "modes", "duration_s", "rate_hz"] {
            #expect(keys.contains(key), "\(key)")
        }
        let text = summary.json.serialized
        #expect(text.contains(#""start":"2026-03-14T09:30:00.000Z""#))
        #expect(text.contains(#""gaps":[{"start":"2026-03-14T09:30:09.000Z","end":"2026-03-14T09:30:25.000Z","seconds":16,"#))
        #expect(text.contains(#""modes":{"3d":12,"2d":1}"#))
        // No records: zero fixes, nothing unknown written as null.
        let empty = TrackSummary(Track([], gap: 10), bytes: 0).json.serialized
        #expect(empty.hasPrefix(#"{"fixes":0,"distance_m":0,"#) && !empty.contains("null"))
    }

    @Test func theTextNamesEveryFigure() {
        let text = SummaryRenderer.render(TrackSummary(Track(Self.gappy(), gap: 10), bytes: 2500), files: ["logger.jsonl"])
        #expect(text.hasPrefix("logger.jsonl: 13 fixes (logger), 2.5 kB\n"))
        #expect(text.contains("time: 2026-03-14 09:30:00 UTC to 09:31:00 UTC (60 s)"))
        #expect(text.contains("gaps over 10 s: 2, 50 s in all\n  09:30:09 – 09:30:25  16 s, "))
        #expect(text.contains("horizontal accuracy: median ±2.0 m, 95 % ±2.0 m"))
        #expect(text.contains("modes: 3D 13; accuracy: full 13"))
    }
}

/// `locationctl plot`'s SVG: well formed enough to check here, the rest by
/// rsvg-convert in the integration tests.
@Suite struct TrackPlotTests {
    @Test func theDocumentHasTheTrackItsMarksAndItsLegend() {
        let records = TrackSummaryTests.gappy()
        let track = Track(records, gap: 10)
        let svg = String(decoding: TrackPlot(track, summary: TrackSummary(track, bytes: 0)).svg(), as: UTF8.self)
        #expect(svg.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(!svg.contains("http://") || svg.components(separatedBy: "http://").count == 2, "only the SVG namespace")
        // Three lines (two gaps), start and end marks, a scale bar and a legend with counts.
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2, "the last line is a single fix: no polyline")
        #expect(svg.contains("<title>start 2026-03-14T09:30:00.000Z</title>"))
        #expect(svg.contains("<title>end 2026-03-14T09:31:00.000Z</title>"))
        #expect(svg.contains(#"<g id="scale">"#) && svg.contains(#"<g id="legend""#))
        #expect(svg.contains("≤ 3 m (13)"))
        #expect(svg.contains("13 fixes"))
    }

    /// #32: a reduced record is a grid cell's centre, kilometres from where the receiver was:
    /// it neither sets the map's extent nor counts in the accuracy legend, and is drawn apart.
    @Test func reducedCellsDoNotSetTheExtentAndAreDrawnApart() throws {
        var records = (0..<10).map { TrackSummaryTests.record(Double($0), 35.68, 139.76 + Double($0) * 1e-5, hAcc: 2) }
        // Two cell centres about 3 km away.
        records.append(TrackSummaryTests.record(10, 35.70, 139.79, hAcc: 3000, accuracy: .reduced))
        records.append(TrackSummaryTests.record(11, 35.70, 139.79, hAcc: 3000, accuracy: .reduced))
        let track = Track(records, gap: 10)
        let projection = TrackPlot.Projection(track.points) { $0.accuracy == .full }
        #expect(projection.maxEast - projection.minEast < 10, "the 9 m of full-accuracy track, not the 3 km to the cell")
        #expect(projection.maxNorth - projection.minNorth < 1)
        let svg = String(decoding: TrackPlot(track, summary: TrackSummary(track, bytes: 0)).svg(), as: UTF8.self)
        #expect(svg.contains("≤ 3 m (10)"), "only the full-accuracy records in the bands")
        #expect(!svg.contains("> 25 m (2)"), "a cell's 3 km is not a receiver error")
        #expect(svg.contains("reduced accuracy: grid cells, not measured positions (2, 2 outside the map)"))
        let group = try #require(svg.range(of: #"<g id="reduced""#))
        #expect(svg[group.lowerBound...].components(separatedBy: "<rect").count - 1 >= 1)
        #expect(svg.contains(#"clip-path="url(#map)""#), "what lies outside the extent is cut at the frame")
        // A track of reduced records only is still drawn, its extent from the cells.
        let onlyReduced = Track(Array(records.suffix(2)), gap: 10)
        let cellProjection = TrackPlot.Projection(onlyReduced.points) { $0.accuracy == .full }
        #expect(cellProjection.east.count == 2 && cellProjection.maxEast == cellProjection.minEast)
        let cells = String(decoding: TrackPlot(onlyReduced, summary: TrackSummary(onlyReduced, bytes: 0)).svg(), as: UTF8.self)
        #expect(cells.contains("(2)") && cells.hasSuffix("</svg>\n"))
    }

    @Test func bandsAndNiceLengths() {
        #expect(TrackPlot.band(of: 2) == 0 && TrackPlot.band(of: 3) == 0 && TrackPlot.band(of: 4) == 1)
        #expect(TrackPlot.band(of: 5000) == TrackPlot.bands.count - 1 && TrackPlot.band(of: nil) == TrackPlot.bands.count)
        #expect(TrackPlot.niceLength(below: 730) == 500 && TrackPlot.niceLength(below: 2400) == 2000)
        #expect(TrackPlot.niceLength(below: 19) == 10 && TrackPlot.niceLength(below: 0.3) == 1)
    }

    @Test func aTrackAcrossTheAntimeridianIsDrawnInOnePiece() {
        let records = (0..<5).map { TrackSummaryTests.record(Double($0), -16.5, 179.9998 + Double($0) * 1e-4) }
        let track = Track(records, gap: 10)
        let projection = TrackPlot.Projection(track.points)
        #expect(projection.maxEast - projection.minEast < 100, "about 43 m across, not the width of the Earth")
    }
}
