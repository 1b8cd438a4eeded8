import Foundation
import LocationCore
import LocationProtocol
import LocationValues
import LocationTools
import Testing
import TestSupport

/// Every export format read back by gpsbabel (Debian's package), the way a
/// user would convert or inspect it: same number of points, same positions
/// and, where the format carries them, the same times.
@Suite(.timeLimit(.minutes(10)), .enabled(if: GPSBabel.isInstalled, "gpsbabel is not installed (scripts/install-deps installs it)"))
struct GPSBabelReadBackTests {
    /// A 2-client log of 1500 records with gaps, an accuracy change, optional fields coming and going,
    /// and the receiver changing (a new KML Placemark, a CSV `device` column gpsbabel must skip).
    static let records: [LogRecord] = {
        var records: [LogRecord] = []
        var t = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 23, minute: 50, second: 1)
        for i in 0..<1500 {
            t += i % 200 == 199 ? 300 : 1.2  // a gap every 200 records
            let client = i < 1200 ? "logger" : "survey & co"
            records.append(
                LogRecord(
                    time: t, latitude: -33.8678500 + Double(i) * 3.3e-6, longitude: 151.2073200 - Double(i) * 2.1e-6,
                    altitude: i % 3 == 0 ? nil : 40 + Double(i % 17) * 0.1, horizontalError: 4.8,
                    verticalError: nil, speed: i % 5 == 0 ? nil : 1.4, course: Double(i % 360),
                    mode: i % 4 == 0 ? .twoD : .threeD, satellites: i % 2 == 0 ? 9 : nil,
                    device: i % 150 < 100 ? "/dev/ttyACM0" : (i % 150 < 140 ? "/dev/tty,USB0" : nil),
                    accuracy: (900..<950).contains(i) ? .reduced : .full, client: client))
        }
        return records
    }()

    @Test(arguments: ExportFormat.allCases)
    func gpsbabelReadsEveryPointBack(format: ExportFormat) async throws {
        let directory = try ScratchDirectory("export")
        let input = try directory.write("track.\(format.fileExtension)", Exporter.document(Self.records, format: format))
        let output = directory.file("back.csv")

        // Tracks for GPX and KML, waypoints for the point formats.
        let kind = format == .gpx || format == .kml ? "-t" : "-w"
        let reader = format == .csv ? "unicsv" : format.rawValue
        let status = try await GPSBabel.run([kind, "-i", reader, "-f", input, "-o", "unicsv,utc=0", "-F", output])
        #expect(status == 0, "gpsbabel exited with \(status)")

        let rows = try GPSBabel.rows(directory.text("back.csv"))
        #expect(rows.count == Self.records.count)
        for (row, record) in zip(rows, Self.records) {
            let lat = try #require(row["Latitude"].flatMap(Double.init))
            let lon = try #require(row["Longitude"].flatMap(Double.init))
            #expect(abs(lat - record.latitude) < 1e-6 && abs(lon - record.longitude) < 1e-6)
            if format != .geojson {  // gpsbabel's GeoJSON reader keeps no times
                // The file has milliseconds; gpsbabel's unicsv prints whole seconds, truncated.
                let whole = ((record.time * 1000).rounded() / 1000).rounded(.down)
                let expected = UTCTime.format(whole, fractionDigits: 0)  // 2026-03-14T23:50:02Z
                let date = expected.prefix(10).replacingOccurrences(of: "-", with: "/")
                let time = String(expected.dropFirst(11).prefix(8))
                #expect(row["Date"] == date && row["Time"]?.hasPrefix(time) == true, "\(row) vs \(expected)")
            }
        }
    }

    @Test func gpsbabelSeesTheSegmentsAndTracksOfTheGPX() async throws {
        let directory = try ScratchDirectory("export")
        let input = try directory.write("track.gpx", Exporter.document(Self.records, format: .gpx))
        let output = directory.file("back.gpx")
        #expect(try await GPSBabel.run(["-t", "-i", "gpx", "-f", input, "-o", "gpx,gpxver=1.1", "-F", output]) == 0)
        let text = try directory.text("back.gpx")
        var segmenter = TrackSegmenter()
        for record in Self.records { _ = segmenter.boundary(for: record) }
        #expect(text.components(separatedBy: "<trk>").count - 1 == segmenter.trackCount)
        #expect(text.components(separatedBy: "<trkseg>").count - 1 == segmenter.segmentCount)
        #expect(text.contains("<name>survey &amp; co</name>"))
    }
}

/// Running `/usr/bin/gpsbabel`, and reading its unicsv output.
enum GPSBabel {
    static let path = "/usr/bin/gpsbabel"
    static var isInstalled: Bool { ExternalTool.isAvailable(when: FileIO.isExecutable(path)) }

    /// Runs gpsbabel to its end; its output goes to a file named in `arguments`.
    static func run(_ arguments: [String]) async throws -> Int32 {
        try await ChildProcess.run([path] + arguments).status
    }

    /// unicsv rows as header → value (no field of ours has a comma except quoted names, which we skip).
    static func rows(_ csv: String) throws -> [[String: String]] {
        let lines = csv.split(whereSeparator: \.isNewline).map(String.init)
        guard let header = lines.first?.split(separator: ",").map(String.init) else { return [] }
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (key, value) in zip(header, fields) where !value.hasPrefix("\"") { row[key] = value }
            return row
        }
    }
}
