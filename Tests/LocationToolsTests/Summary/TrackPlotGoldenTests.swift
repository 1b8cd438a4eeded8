import Glibc
import Testing
import TestSupport
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationTools

/// `TrackPlot.svg()`'s bytes, pinned: each plot below is compared with the document kept in
/// `fixtures/plots/`, so a change that moves one byte of a plot is seen here (a refactoring must
/// leave them all as they are). After a change meant to alter the plots, write them again with
/// `LOCATIOND_WRITE_PLOTS=1 swift test --filter TrackPlotGoldenTests` and look at them.
@Suite(.timeLimit(.minutes(10))) struct TrackPlotGoldenTests {
    /// A name and the records of each plot.
    static let plots: [(name: String, records: [LogRecord])] = [
        ("gappy", TrackSummaryTests.gappy()),
        ("two-receivers", ReceiverTracksTests.twoReceivers()),
        ("reduced", reducedBeside()),
        ("reduced-only", Array(reducedBeside().suffix(2))),
        ("every-band", everyBand()),
        ("antimeridian", (0..<5).map { TrackSummaryTests.record(Double($0), -16.5, 179.9998 + Double($0) * 1e-4) }),
        ("empty", []),
    ]

    /// Ten full-accuracy fixes and two grid cells about 3 km away (#32).
    static func reducedBeside() -> [LogRecord] {
        var records = (0..<10).map { TrackSummaryTests.record(Double($0), 35.68, 139.76 + Double($0) * 1e-5, hAcc: 2) }
        records.append(TrackSummaryTests.record(10, 35.70, 139.79, hAcc: 3000, accuracy: .reduced))
        records.append(TrackSummaryTests.record(11, 35.70, 139.79, hAcc: 3000, accuracy: .reduced))
        return records
    }

    /// A walk through every accuracy band, an unknown error among them, and a 2D stretch.
    static func everyBand() -> [LogRecord] {
        let errors: [Double?] = [1, 4, 8, 20, 80, nil, 2.5, 30, nil, 6]
        return errors.enumerated().map { i, error in
            TrackSummaryTests.record(Double(i) * 2, 48.2 + Double(i) * 3e-5, 16.37 + Double(i % 3) * 2e-5, hAcc: error,
                                     mode: i > 6 ? .twoD : .threeD)
        }
    }

    @Test(arguments: plots.map(\.name))
    func thePlotIsByteForByteTheOneKept(_ name: String) throws {
        let records = try #require(Self.plots.first { $0.name == name }).records
        let track = Track(records, gap: 10)
        let svg = TrackPlot(track, summary: TrackSummary(track, bytes: 0)).svg()
        let path = PackagePaths.path("fixtures/plots/\(name).svg")
        if getenv("LOCATIOND_WRITE_PLOTS").map({ String(cString: $0) }) == "1" { try FileIO.write(path, svg) }
        let kept = try FileIO.read(path)
        guard svg != kept else { return }
        // Where they part, with some text either side, rather than two arrays of bytes.
        let at = svg.indices.first { $0 >= kept.count || svg[$0] != kept[$0] } ?? svg.count
        func around(_ bytes: [UInt8]) -> String { String(decoding: bytes[max(0, at - 40)..<min(bytes.count, at + 40)], as: UTF8.self) }
        Issue.record("\(name): the plot differs from \(path) at byte \(at): drawn …\(around(svg))…, kept …\(around(kept))…")
    }
}
