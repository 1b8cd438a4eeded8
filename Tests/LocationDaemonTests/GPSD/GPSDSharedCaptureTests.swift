import LocationCore
import LocationValues
import Testing

@testable import LocationDaemon
import TestSupport

/// The real receiver captures in `fixtures/gpsd`, replayed through
/// gpsd: the source's fixes must be gpsd's own epochs, and agree with the
/// expected output gpsd's project ships with each capture (`.chk`).
@Suite(
    .timeLimit(.minutes(10)),
    .serialized,
    .enabled(if: GPSFake.isAvailable, "needs gpsfake (gpsd-clients), gpsd and python3-gps")
)
struct GPSDSharedCaptureTests {
    static let captures = FileIO.files(in: PackagePaths.gpsdCaptures, suffix: ".log")

    @Test(arguments: captures)
    func fixesEqualGPSDsOwnViewAndItsExpectedOutput(capture: String) async throws {
        let path = PackagePaths.gpsdCaptures + "/" + capture
        let replay = try await GPSDReplay.run(log: path, cycle: 0.001)
        replay.expectFixesMatchReference()
        let times = replay.fixes.compactMap(\.time)
        #expect(Set(times).count == times.count, "no epoch twice")

        // The .chk files come from a newer gpsd with the true dates, while
        // 3.22 shifts pre-2017 dates by 1024 weeks: compare the time of day.
        // The exact check is the one above (same gpsd, same stream); this one
        // is a cross-version sanity check, so it asks for broad agreement:
        // when a receiver's sentences disagree with each other (bundg_zeus_9's
        // plotter sends RMC, GGA and GLL positions from different moments
        // under one time), the newer gpsd picks a different sentence.
        var expected: [Int64: [JSONValue]] = [:]
        for tpv in Self.tpvs(in: path + ".chk") {
            guard let text = tpv["time"]?.stringValue, let time = UTCTime.parse(text) else { continue }
            expected[Self.millisecondOfDay(time), default: []].append(tpv)
        }
        let usable = replay.fixes.filter(\.isUsable)
        var disagreeing: [String] = []
        for fix in usable {
            let time = try #require(fix.time)
            let candidates = expected[Self.millisecondOfDay(time)] ?? []
            let agrees = candidates.contains { tpv in
                guard let lat = tpv["lat"]?.numberValue, let lon = tpv["lon"]?.numberValue else { return false }
                return abs(lat - fix.latitude) <= 1e-7 && abs(lon - fix.longitude) <= 1e-7
                    && tpv["mode"]?.intValue == fix.mode.rawValue
            }
            if !agrees { disagreeing.append("\(UTCTime.format(time)) \(fix.mode) \(fix.latitude) \(fix.longitude)") }
        }
        #expect(
            disagreeing.count * 4 <= usable.count,
            "\(capture): \(disagreeing.count) of \(usable.count) fixes disagree with the .chk: \(disagreeing.prefix(5))")
    }

    static func millisecondOfDay(_ time: Double) -> Int64 {
        let milliseconds = Int64((time * 1000).rounded())
        return ((milliseconds % 86_400_000) + 86_400_000) % 86_400_000
    }

    static func tpvs(in path: String) -> [JSONValue] {
        guard let text = FileIO.text(path) else { return [] }
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("{"), let value = try? JSONValue.parse(String(line)),
                value["class"]?.stringValue == "TPV"
            else { return nil }
            return value
        }
    }
}
