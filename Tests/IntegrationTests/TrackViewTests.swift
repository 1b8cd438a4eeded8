import LocationCore
import LocationValues
import LocationTools
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `locationctl summary`, `plot` and `export --line` on logs the replay makes
/// from the project's fixtures, checked against Tests/Scripts/trackcheck.py:
/// GeographicLib's geodesics, Python's percentiles, an XML parser, a PNG
/// decoded pixel by pixel, python3-geojson.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PackagePaths.productMissing("locationd") == nil && PackagePaths.productMissing("locationctl") == nil, "locationd and locationctl are not built"))
struct TrackViewTests {
    static let python = "/usr/bin/python3"
    static let script = PackagePaths.path("Tests/Scripts/trackcheck.py")

    /// A replay of `fixture` with a logger that keeps every fix: its log.
    static func replayed(_ fixture: String, in sandbox: DaemonSandbox) async throws -> String {
        try sandbox.writeConfig(port: 2947, clients: DaemonSandbox.logger(filter: "none", accuracy: "best"))
        let out = sandbox.file("out-" + fixture)
        let result = try await sandbox.runLocationd(["replay", PackagePaths.fixture(fixture), "--config", sandbox.configPath, "--log-dir", out])
        try #require(result.status == 0, "\(result.stderr)")
        return out + "/logger.jsonl"
    }

    static func run(_ arguments: [String]) async throws -> ChildProcess.Outcome {
        try await ChildProcess.run(arguments, environment: .only([:]))
    }

    static func json(_ text: String) throws -> JSONValue {
        try JSONValue.parse(text.trimmingSuffixNewline)
    }

    /// Splits a log in two at record `at`, as logrotate would: `log.1` and `log`.
    static func rotate(_ log: String, at: Int) throws -> (older: String, newer: String) {
        let lines = try FileIO.read(log).split(separator: 0x0A, omittingEmptySubsequences: true)
        try FileIO.write(log + ".1", Array(lines[..<at].joined(separator: [0x0A])) + [0x0A])
        try FileIO.write(log, Array(lines[at...].joined(separator: [0x0A])) + [0x0A])
        return (log + ".1", log)
    }

    @Test(.enabled(if: ExternalTool.isAvailable("python3"), "needs python3"), arguments: [("walk.nmea", 10.0), ("no-fix-gaps.nmea", 3.0), ("antimeridian.nmea", 10.0)])
    func summaryFiguresMatchGeographicLibAndPython(fixture: String, gap: Double) async throws {
        let sandbox = try DaemonSandbox("summary")
        let log = try await Self.replayed(fixture, in: sandbox)
        let count = sandbox.records(file: log).count
        try #require(count > 10)
        let files = try Self.rotate(log, at: count / 3)
        // The newer file first: the summary puts the records in time order.
        let ours = try await Self.run([PackagePaths.product("locationctl"), "--json", "summary", files.newer, files.older, "--gap", String(gap)])
        #expect(ours.status == 0, "\(ours.stderr)")
        let theirs = try await Self.run([Self.python, Self.script, "summary", String(gap), files.older, files.newer])
        try #require(theirs.status == 0, "\(theirs.stderr)")
        let a = try Self.json(ours.output), b = try Self.json(theirs.output)
        #expect(a["fixes"]?.intValue == count && b["fixes"]?.intValue == count)
        #expect(a["start"] == b["start"] && a["end"] == b["end"])
        let distance = try #require(a["distance_m"]?.numberValue), reference = try #require(b["distance_m"]?.numberValue)
        #expect(reference > 0 && abs(distance - reference) / reference < 0.001, "\(distance) m vs GeographicLib's \(reference) m")
        let gaps = (a["gaps"]?.arrayValue ?? []).map { [$0["start"]?.stringValue, $0["end"]?.stringValue] }
        let expectedGaps = (b["gaps"]?.arrayValue ?? []).map { [$0["start"]?.stringValue, $0["end"]?.stringValue] }
        #expect(gaps == expectedGaps)
        if fixture == "no-fix-gaps.nmea" { #expect(gaps.count == 2, "the fixture's two outages") }
        for key in ["hacc_p50", "hacc_p95"] {
            let x = try #require(a[key]?.numberValue), y = try #require(b[key]?.numberValue)
            #expect(abs(x - y) < 0.001, "\(key): \(x) vs \(y)")
        }
        #expect(a["bytes"]?.intValue == b["bytes"]?.intValue)
        // The text form says the same.
        let text = try await Self.run([PackagePaths.product("locationctl"), "summary", files.older, files.newer, "--gap", String(gap)])
        #expect(text.status == 0)
        #expect(text.output.contains("\(count) fixes (logger)"))
        #expect(text.output.contains("gaps over \(SummaryRendererProbe.seconds(gap)): " + (gaps.isEmpty ? "none" : "\(gaps.count),")))
    }

    @Test func summaryOfAMissingOrForeignFileSaysWhy() async throws {
        let sandbox = try DaemonSandbox("summary-bad")
        let missing = try await Self.run([PackagePaths.product("locationctl"), "summary", sandbox.file("nothing.jsonl")])
        #expect(missing.status == 1 && missing.stderr.contains("cannot read \(sandbox.file("nothing.jsonl"))"))
        try FileIO.write(sandbox.file("notes.jsonl"), "hello\nworld\n")
        let foreign = try await Self.run([PackagePaths.product("locationctl"), "summary", sandbox.file("notes.jsonl")])
        #expect(foreign.status == 1 && foreign.stderr.contains("line 1: ") && foreign.stderr.contains("has no records"))
        #expect(foreign.output.isEmpty)
        try FileIO.write(sandbox.file("empty.jsonl"), "")
        let empty = try await Self.run([PackagePaths.product("locationctl"), "--json", "summary", sandbox.file("empty.jsonl")])
        #expect(empty.status == 0 && empty.output.hasPrefix(#"{"fixes":0,"#))
    }

    @Test(.enabled(if: ExternalTool.isAvailable("rsvg-convert", "python3"), "needs rsvg-convert (librsvg2-bin) and python3"))
    func thePlotIsXMLAndRendersToAPictureOfTheTrack() async throws {
        let sandbox = try DaemonSandbox("plot")
        let log = try await Self.replayed("no-fix-gaps.nmea", in: sandbox)
        let svg = sandbox.file("track.svg"), png = sandbox.file("track.png")
        let plot = try await Self.run([PackagePaths.product("locationctl"), "plot", log, "--gap", "3", "-o", svg])
        #expect(plot.status == 0, "\(plot.stderr)")
        // #39: where it wrote and how much.
        #expect(plot.stderr.hasPrefix("locationctl: wrote a track of 62 fixes to \(svg) (") && plot.stderr.hasSuffix(" kB)\n"), "\(plot.stderr)")
        let piped = try await Self.run([PackagePaths.product("locationctl"), "plot", log, "--gap", "3", "-o", "-"])
        #expect(piped.status == 0 && piped.stderr.isEmpty && piped.output.hasPrefix("<?xml"), "\(piped.stderr)")
        let parsed = try await Self.run([Self.python, Self.script, "svg", svg])
        try #require(parsed.status == 0, "not XML: \(parsed.stderr)")
        let tree = try Self.json(parsed.output)
        #expect(tree["root"]?.stringValue == "{http://www.w3.org/2000/svg}svg")
        #expect(tree["counts"]?["polyline"]?.intValue == 3, "two gaps: three lines")
        #expect(tree["external"]?.arrayValue?.isEmpty == true, "self-contained")
        #expect(tree["title"]?.stringValue?.contains("62 fixes") == true)
        #expect(tree["title"]?.stringValue?.contains("2 gaps over 3 s") == true)
        let render = try await Self.run(["rsvg-convert", "--background-color", "white", "-o", png, svg])
        try #require(render.status == 0, "\(render.stderr)")
        let pixels = try await Self.run([Self.python, Self.script, "png", png])
        try #require(pixels.status == 0, "\(pixels.stderr)")
        let picture = try Self.json(pixels.output)
        #expect(picture["width"]?.intValue == 960)
        let colours = picture["colours"]?.objectValue ?? []
        let total = colours.reduce(0) { $0 + ($1.1.intValue ?? 0) }
        let white = colours.first { $0.0 == "#ffffff" }?.1.intValue ?? 0
        #expect(total > 0 && white < total * 9 / 10, "not blank: \(total - white) of \(total) pixels drawn")
        // Every fix of this walk has 10–25 m: its band's colour is on the picture, pixel for pixel.
        let band = TrackPlot.bands[TrackPlot.band(of: 15)].colour
        #expect((colours.first { $0.0 == band }?.1.intValue ?? 0) > 200, "the fixes' colour \(band)")
        #expect((colours.first { $0.0 == "#555555" }?.1.intValue ?? 0) > 50, "the track line")
    }
}

extension TrackViewTests {
    @Test(.enabled(if: ExternalTool.isAvailable("ogrinfo", "python3"), "needs ogrinfo (gdal-bin) and python3-geojson"))
    func theLineExportIsReadByGDALAndPythonGeoJSONSplitAtTheGaps() async throws {
        let sandbox = try DaemonSandbox("geojson-line")
        let log = try await Self.replayed("no-fix-gaps.nmea", in: sandbox)
        let records = sandbox.records(file: log)
        let out = sandbox.file("track.geojson")
        let export = try await Self.run([PackagePaths.product("locationctl"), "export", log, "--line", "--gap", "3", "-o", out])
        #expect(export.status == 0, "\(export.stderr)")
        // The lines as the records split at more than 3 s, counted here.
        var sizes: [Int] = []
        for (i, record) in records.enumerated() {
            if i == 0 || record.time - records[i - 1].time > 3 { sizes.append(0) }
            sizes[sizes.count - 1] += 1
        }
        #expect(sizes.count == 3 && sizes.allSatisfy { $0 > 1 })
        let gdal = try await Self.run(["ogrinfo", "-ro", "-al", out])
        try #require(gdal.status == 0, "\(gdal.stderr)")
        #expect(gdal.output.contains("Geometry: Multi Line String"), "\(gdal.output.prefix(600))")
        #expect(gdal.output.contains("Feature Count: 1"))
        #expect(gdal.output.contains("MULTILINESTRING (("))
        #expect(gdal.output.contains("fixes (Integer) = \(records.count)"))
        #expect(gdal.output.contains("start (DateTime) = "))
        let python = try await Self.run([Self.python, Self.script, "geojson", out])
        try #require(python.status == 0, "\(python.stderr)")
        let read = try Self.json(python.output)
        let feature = try #require(read["features"]?.arrayValue?.first)
        #expect(feature["type"] == "MultiLineString" && feature["valid"] == true)
        #expect(feature["coordinates"]?.arrayValue?.map { $0.arrayValue?.count ?? 0 } == sizes)
        let times = feature["properties"]?["coordTimes"]?.arrayValue?.flatMap { $0.arrayValue ?? [] }
        #expect(times?.map(\.stringValue) == records.map { UTCTime.format($0.time) })
        let first = feature["coordinates"]?.arrayValue?.first?.arrayValue?.first
        #expect(first == [JSONValue.number(records[0].longitude), JSONValue.number(records[0].latitude)])
    }

    @Test func theReadmePlotIsWhatScriptsPlotWalkDrawsNow() async throws {
        let sandbox = try DaemonSandbox("plot-walk")
        let out = sandbox.file("walk.svg")
        let run = try await ChildProcess.run(
            ["/bin/sh", PackagePaths.path("scripts/plot-walk"), "--out", out],
            environment: .inherited(["BIN": PackagePaths.path(".build/debug")]))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.contains("136 fixes (logger)"))
        #expect(try FileIO.read(out) == FileIO.read(PackagePaths.path("docs/walk.svg")), "run scripts/plot-walk and commit docs/walk.svg")
    }
}

/// The renderer's formatting of a threshold, as the test expects it.
enum SummaryRendererProbe {
    static func seconds(_ s: Double) -> String { s == s.rounded() ? "\(Int(s)) s" : "\(s) s" }
}

extension String {
    fileprivate var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
