import Foundation
import Testing
import TestSupport
@testable import LocationProtocol
@testable import LocationValues
@testable import LocationTools

/// `summary --reference`'s figures against GeographicLib's: `Vectors/field.jsonl` and
/// `Vectors/field-expected.json`, made by `Vectors/make_field_vectors.py` (geodesic
/// errors, azimuthal-equidistant offsets, Python's quantiles). Every figure to 1 cm.
@Suite struct ReceiverAccuracyTests {
    static let directory = "Tests/LocationToolsTests/Vectors/"

    static func records() throws -> [LogRecord] {
        let text = try String(contentsOfFile: PackagePaths.path(directory + "field.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { try LogRecord.parse(String($0)) }
    }

    static func expected() throws -> JSONValue {
        try JSONValue.parse(try String(contentsOfFile: PackagePaths.path(directory + "field-expected.json"), encoding: .utf8))
    }

    static let mark = SurveyReference.mark(latitude: 35.6811990, longitude: 139.7670669, altitude: 40.2)

    /// Every expected figure of `kind` (`mark` or `mean`) matches the computed one, and nothing more is computed.
    func check(_ kind: String, _ reference: SurveyReference) throws {
        let receivers = ReceiverAccuracy.all(Track(try Self.records(), gap: 10), reference: reference)
        let table = try #require(try Self.expected()[kind]?.objectValue)
        #expect(receivers.map { $0.device ?? "" } == ["/dev/ttyUSB0", "/dev/ttyACM0", ""], "in order of first record")
        for (device, figures) in table {
            let receiver = try #require(receivers.first { ($0.device ?? "") == device })
            guard case .object(let members) = receiver.json else { Issue.record("not an object"); continue }
            // `span_m` and `moved` say whether the figures mean anything (tested below), they are none of GeographicLib's.
            let computed = Dictionary(uniqueKeysWithValues: members.filter { !["device", "span_m", "moved"].contains($0.0) })
            let wanted = try #require(figures.objectValue)
            #expect(Set(computed.keys) == Set(wanted.map(\.0)), "\(device): the same figures are known")
            for (key, value) in wanted {
                let want = try #require(value.numberValue), got = try #require(computed[key]?.numberValue, "\(device) \(key)")
                switch key {
                case "bias_bearing_deg":
                    // A bearing to 1 cm: the bias vector's components.
                    let bias = try #require(wanted.first { $0.0 == "bias_m" }?.1.numberValue)
                    let angle = (got - want) * .pi / 180
                    #expect(abs(bias * sin(angle)) < 0.01, "\(device) \(key): \(got) against \(want)")
                case "hacc_covers", "fixes", "reduced_excluded":
                    #expect(abs(got - want) < 1e-12, "\(device) \(key): \(got) against \(want)")
                default:
                    #expect(abs(got - want) < 0.01, "\(device) \(key): \(got) against \(want)")
                }
            }
        }
    }

    @Test func figuresAgainstASurveyedMarkMatchGeographicLibToACentimetre() throws {
        try check("mark", Self.mark)
    }

    @Test func figuresAroundEachReceiversMeanMatchGeographicLibToACentimetre() throws {
        try check("mean", .mean)
    }

    /// #39: figures around a point mean nothing for a receiver that moved: it is said, with how far.
    @Test func aReceiverThatMovedIsWarnedOfWithHowFarItsFixesLieApart() throws {
        // W walks 2.2 m north a second for 100 s (about 220 m); S stays within a metre of the mark.
        var records: [LogRecord] = []
        for t in 0..<100 {
            records.append(LogRecord(time: Double(t), latitude: 35.68 + Double(t) * 2e-5, longitude: 139.76, device: "W", client: "c"))
            records.append(LogRecord(time: Double(t) + 0.5, latitude: 35.68 + Double(t % 3) * 3e-6, longitude: 139.76, device: "S", client: "c"))
        }
        let mark = SurveyReference.mark(latitude: 35.68, longitude: 139.76, altitude: nil)
        let receivers = ReceiverAccuracy.all(Track(records, gap: 10), reference: mark)
        let walker = try #require(receivers.first { $0.device == "W" }), still = try #require(receivers.first { $0.device == "S" })
        let walked = Geodesy.distance(fromLatitude: 35.68, longitude: 139.76, toLatitude: 35.68 + 99 * 2e-5, longitude: 139.76)
        // The 5 % farthest from the middle left out: a little less than the whole walk.
        #expect(walker.moved && walker.span > 0.9 * walked && walker.span <= walked, "\(walker.span) m of \(walked) m")
        #expect(!still.moved && still.span < 1 && still.movedWarning == nil)
        let warning = try #require(walker.movedWarning)
        #expect(warning == "W moved: its fixes lie up to \(SummaryRenderer.length(walker.span)) apart; "
            + "CEP, 2DRMS and bias measure how far fixes fall from one point, and mean nothing for a receiver that moved")
        let summary = TrackSummary(Track(records, gap: 10), bytes: 0)
        let text = SummaryRenderer.render(summary, files: ["x"], reference: mark, receivers: receivers)
        #expect(text.contains("\n  warning: " + warning + "\n"), "\(text)")
        #expect(!text.contains("S moved"))
        let json = try JSONValue.parse(String(SummaryRenderer.renderJSON(summary, files: ["x"], reference: mark, receivers: receivers).dropLast()))
        let devices = json["devices"]?.arrayValue ?? []
        #expect(devices.map { $0["moved"] } == [.bool(true), .bool(false)], "\(devices)")
        let svg = String(decoding: ScatterPlot(receivers, reference: mark, title: "walk").svg(), as: UTF8.self)
        #expect(svg.contains("2DRMS \(SummaryRenderer.metres(walker.drms2)) — moved \(SummaryRenderer.length(walker.span)): no accuracy figure"))
    }

    @Test func reducedRecordsAreLeftOutAndCounted() throws {
        let receivers = ReceiverAccuracy.all(Track(try Self.records(), gap: 10), reference: Self.mark)
        let acm = try #require(receivers.first { $0.device == "/dev/ttyACM0" })
        #expect(acm.reducedExcluded == 4 && acm.fixes == 176 && acm.offsets.count == 176)
    }

    @Test func theTangentPlaneAgreesWithGeodesicDistanceOverKilometres() {
        let plane = LocalTangentPlane(latitude: 35.68, longitude: 139.76)
        for (lat, lon) in [(35.70, 139.76), (35.68, 139.80), (35.66, 139.73), (35.6801, 139.7601)] {
            let o = plane.offset(latitude: lat, longitude: lon)
            let s = Geodesy.distance(fromLatitude: 35.68, longitude: 139.76, toLatitude: lat, longitude: lon)
            #expect(abs((o.east * o.east + o.north * o.north).squareRoot() - s) < 0.01, "\(lat),\(lon)")
        }
        let north = plane.offset(latitude: 35.69, longitude: 139.76), east = plane.offset(latitude: 35.68, longitude: 139.77)
        #expect(abs(north.east) < 1e-6 && north.north > 1000 && abs(east.north) < 2 && east.east > 900)
    }

    @Test func theJSONHasTheReferenceAndADeviceEntryPerReceiver() throws {
        let track = Track(try Self.records(), gap: 10)
        let receivers = ReceiverAccuracy.all(track, reference: Self.mark)
        let line = SummaryRenderer.renderJSON(TrackSummary(track, bytes: 0), files: ["f"], reference: Self.mark, receivers: receivers)
        let json = try JSONValue.parse(String(line.dropLast()))
        #expect(json["reference"]?["lat"]?.numberValue == 35.6811990 && json["reference"]?["alt"]?.numberValue == 40.2)
        let devices = try #require(json["devices"]?.arrayValue)
        #expect(devices.count == 3 && devices[0]["device"]?.stringValue == "/dev/ttyUSB0" && devices[2]["device"] == nil)
        let mean = SummaryRenderer.renderJSON(
            TrackSummary(track, bytes: 0), files: ["f"], reference: .mean, receivers: ReceiverAccuracy.all(track, reference: .mean))
        let meanJSON = try JSONValue.parse(String(mean.dropLast()))
        #expect(meanJSON["reference"]?.stringValue == "mean")
        #expect(meanJSON["devices"]?.arrayValue?.allSatisfy { $0["mean"]?["lat"] != nil && $0["bias_m"] == nil } == true)
    }

    @Test func theTextPutsTwoReceiversSideBySide() throws {
        let track = Track(try Self.records(), gap: 10)
        let receivers = ReceiverAccuracy.all(track, reference: Self.mark)
        let text = SummaryRenderer.render(TrackSummary(track, bytes: 0), files: ["f"], reference: Self.mark, receivers: receivers)
        let lines = text.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("  receiver") })
        #expect(header.contains("/dev/ttyUSB0") && header.contains("/dev/ttyACM0"), "two receivers on one row")
        #expect(lines.contains { $0.hasPrefix("  receiver") && $0.contains("(unnamed)") }, "the third in a block of its own")
        let cep = try #require(lines.first { $0.hasPrefix("  CEP50") })
        #expect(cep.contains(SummaryRenderer.metres(receivers[0].cep50)) && cep.contains(SummaryRenderer.metres(receivers[1].cep50)))
        #expect(text.contains("4 reduced left out"))
        #expect(text.contains("accuracy against 35.6811990,139.7670669, 40.200 m:"))
    }

    @Test func oneFixAndNoHAccGiveWhatCanBeComputed() throws {
        let one = LogRecord(time: 0, latitude: 1, longitude: 2, altitude: nil, device: "/dev/x", client: "c")
        let r = ReceiverAccuracy.all(Track([one], gap: 10), reference: .mark(latitude: 1, longitude: 2, altitude: 5))[0]
        #expect(r.cep50 == 0 && r.cep99 == 0 && r.drms2 == 0 && r.haccCovers == nil && r.verticalMedian == nil)
        let members = try #require(r.json.objectValue, "a receiver's accuracy is a JSON object: \(r.json)")
        #expect(!members.contains { $0.0 == "hacc_covers" || $0.0 == "vert_p50_m" })
        let reducedOnly = LogRecord(time: 0, latitude: 1, longitude: 2, accuracy: .reduced, client: "c")
        let none = ReceiverAccuracy.all(Track([reducedOnly], gap: 10), reference: .mean)[0]
        #expect(none.fixes == 0 && none.reducedExcluded == 1 && none.cep50 == nil && none.drms2 == nil)
    }
}

/// `plot --reference`: the scatter's circles at the receivers' CEPs, measured with its own scale bar.
@Suite struct ScatterPlotTests {
    /// `(device, kind, cx, cy, r)` of every CEP circle, and pixels per metre from the scale bar.
    static func parse(_ svg: String) throws -> (circles: [(String, String, Double, Double, Double)], pixelsPerMetre: Double) {
        func attribute(_ name: String, in element: Substring) -> String? {
            guard let start = element.range(of: " \(name)=\"") else { return nil }
            let rest = element[start.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        var circles: [(String, String, Double, Double, Double)] = []
        for piece in svg.components(separatedBy: "<circle class=\"cep").dropFirst() {
            let element = Substring("<circle class=\"cep" + piece.prefix { $0 != ">" })
            circles.append(
                (attribute("data-device", in: element) ?? "", attribute("class", in: element) ?? "",
                 Double(attribute("cx", in: element) ?? "") ?? .nan, Double(attribute("cy", in: element) ?? "") ?? .nan,
                 Double(attribute("r", in: element) ?? "") ?? .nan))
        }
        let scale = try #require(svg.components(separatedBy: #"<g id="scale">"#).last)
        let bar = try #require(Double(attribute("width", in: Substring(scale)) ?? ""))
        let metres = try #require(Double(attribute("data-metres", in: Substring(scale)) ?? ""))
        return (circles, bar / metres)
    }

    @Test(arguments: [ReceiverAccuracyTests.mark, .mean])
    func theCirclesAreAtTheReceiversCEP50AndCEP95(reference: SurveyReference) throws {
        let receivers = ReceiverAccuracy.all(Track(try ReceiverAccuracyTests.records(), gap: 10), reference: reference)
        let svg = String(decoding: ScatterPlot(receivers, reference: reference, title: "field").svg(), as: UTF8.self)
        #expect(svg.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#) && svg.hasSuffix("</svg>\n"))
        let (circles, perMetre) = try Self.parse(svg)
        #expect(circles.count == 6, "two circles for each of three receivers")
        let expected = try #require(ReceiverAccuracyTests.expected()[reference == .mean ? "mean" : "mark"])
        for (device, kind, cx, cy, r) in circles {
            let want = try #require(expected[device == "(unnamed)" ? "" : device]?[kind + "_m"]?.numberValue)
            #expect(abs(r / perMetre - want) < 0.01, "\(device) \(kind): \(r / perMetre) m against \(want) m")
            if reference != .mean {
                // Around the reference, which is the map's centre.
                #expect(abs(cx - 480) < 0.001 && abs(cy - (ScatterPlot.top + ScatterPlot.mapSize / 2)) < 0.001)
            }
        }
        #expect(svg.contains("CEP50") && svg.contains("2DRMS"))
        #expect(svg.components(separatedBy: #"<g class="fixes""#).count - 1 == 3, "one group of dots per receiver")
        // #39: every circle and cross is drawn after (above) every receiver's dots, each over a white halo.
        let lastDots = try #require(svg.ranges(of: #"<g class="fixes""#).last)
        let firstCircle = try #require(svg.firstRange(of: #"<circle class="cep"#))
        #expect(lastDots.upperBound < firstCircle.lowerBound)
        #expect(svg.components(separatedBy: #"<circle class="halo""#).count - 1 == circles.count)
        // The pooled mean of `mean` is no receiver's figure: no marker says "mean" at the origin.
        #expect(svg.contains(#"<g id="reference">"#) == (reference != .mean))
        #expect(!svg.contains(">mean<"))
    }

    @Test func niceLengthsGoBelowAMetre() {
        #expect(TrackPlot.niceLength(below: 0.3, minimum: 0.001) == 0.2 && TrackPlot.niceLength(below: 7, minimum: 0.001) == 5)
        #expect(TrackPlot.niceLength(below: 0.0005, minimum: 0.001) == 0.001)
        #expect(TrackPlot.lengthLabel(0.2) == "20 cm" && TrackPlot.lengthLabel(5) == "5 m" && TrackPlot.lengthLabel(2000) == "2 km")
    }
}
