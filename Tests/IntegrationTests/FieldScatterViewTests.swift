import LocationCore
import LocationValues
import LocationTools
import Testing
import TestSupport

/// `locationctl summary --reference` and `plot --reference` as a user runs them, on the
/// GeographicLib fixture (`Tests/LocationToolsTests/Vectors`): the JSON's figures, and a
/// scatter that is XML, self-contained and renders with rsvg-convert in the receivers' colours.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PackagePaths.productMissing("locationctl") == nil, "locationctl is not built"))
struct FieldScatterViewTests {
    static let log = PackagePaths.path("Tests/LocationToolsTests/Vectors/field.jsonl")
    static let mark = "35.6811990,139.7670669,40.2"

    @Test func summaryJSONCarriesEveryReceiversFigures() async throws {
        let run = try await TrackViewTests.run([PackagePaths.product("locationctl"), "--json", "summary", Self.log, "--reference", Self.mark])
        try #require(run.status == 0, "\(run.stderr)")
        let json = try TrackViewTests.json(run.output)
        let expected = try JSONValue.parse(String(decoding: try FileIO.read(PackagePaths.path("Tests/LocationToolsTests/Vectors/field-expected.json")), as: UTF8.self))
        let devices = try #require(json["devices"]?.arrayValue)
        #expect(devices.count == 3)
        for device in devices {
            let name = device["device"]?.stringValue ?? ""
            for key in ["cep50_m", "cep95_m", "cep99_m", "drms2_m", "bias_m", "vert_p50_m", "vert_p95_m"] {
                let want = try #require(expected["mark"]?[name]?[key]?.numberValue), got = try #require(device[key]?.numberValue)
                #expect(abs(got - want) < 0.01, "\(name) \(key)")
            }
        }
        let bad = try await TrackViewTests.run([PackagePaths.product("locationctl"), "summary", Self.log, "--reference", "north"])
        #expect(bad.status != 0 && bad.stderr.contains("--reference must be LAT,LON[,ALT]"))
    }

    @Test(.enabled(if: ExternalTool.isAvailable("rsvg-convert", "python3"), "needs rsvg-convert (librsvg2-bin) and python3"))
    func theScatterIsXMLAndRendersInTheReceiversColours() async throws {
        let sandbox = try DaemonSandbox("scatter")
        // The two receivers near the mark (the third group is kilometres away).
        let lines = String(decoding: try FileIO.read(Self.log), as: UTF8.self).split(separator: "\n").filter { $0.contains(#""device":"/dev/tty"#) }
        let log = sandbox.file("two.jsonl"), svg = sandbox.file("scatter.svg"), png = sandbox.file("scatter.png")
        try FileIO.write(log, Array((lines.joined(separator: "\n") + "\n").utf8))
        let plot = try await TrackViewTests.run([PackagePaths.product("locationctl"), "plot", log, "--reference", Self.mark, "-o", svg])
        #expect(plot.status == 0, "\(plot.stderr)")
        // #39: where it wrote and how much; receivers at rest on the mark draw no warning.
        #expect(plot.stderr.hasPrefix("locationctl: wrote a scatter of ") && plot.stderr.contains(" fixes of 2 receivers to \(svg) ("), "\(plot.stderr)")
        #expect(!plot.stderr.contains("moved"), "\(plot.stderr)")
        let parsed = try await TrackViewTests.run([TrackViewTests.python, TrackViewTests.script, "svg", svg])
        try #require(parsed.status == 0, "not XML: \(parsed.stderr)")
        let tree = try TrackViewTests.json(parsed.output)
        #expect(tree["external"]?.arrayValue?.isEmpty == true, "self-contained")
        let render = try await TrackViewTests.run(["rsvg-convert", "--background-color", "white", "-o", png, svg])
        try #require(render.status == 0, "\(render.stderr)")
        let pixels = try await TrackViewTests.run([TrackViewTests.python, TrackViewTests.script, "png", png])
        try #require(pixels.status == 0, "\(pixels.stderr)")
        let colours = try TrackViewTests.json(pixels.output)["colours"]?.objectValue ?? []
        for colour in ScatterPlot.colours.prefix(2) {
            #expect((colours.first { $0.0 == colour }?.1.intValue ?? 0) > 100, "the circles and legend in \(colour)")
        }
    }
}
