import LocationCore
import LocationValues
import Testing

@testable import LocationDaemon
import TestSupport

/// A log replayed through a real gpsd (gpsfake) to a `GPSDSource` and, side
/// by side, to a plain JSON watcher that records gpsd's own reports.
struct GPSDReplay {
    /// One epoch as gpsd itself reported it: the last TPV with that time
    /// (gpsd's reports of an epoch grow more complete), and how many TPVs it took.
    struct ReferenceEpoch {
        var time: Double
        var mode: Int
        var latitude: Double?
        var longitude: Double?
        var altitudeMSL: Double?
        var eph: Double?
        var epv: Double?
        var speed: Double?
        var track: Double?
        var reports: Int
    }

    /// Every event the source sent.
    var events: [SourceEvent]
    /// The source's counters at the end.
    var statistics: GPSDSourceStatistics
    /// gpsd's epochs with a time, in order.
    var reference: [ReferenceEpoch]
    /// gpsd's TPVs without a time.
    var timelessReferenceReports: Int
    /// Every line the watcher received: the session as `gpspipe -w` records it.
    var recorded: [String] = []

    /// The fixes the source delivered.
    var fixes: [Fix] { events.fixes }

    /// Replays `log` with `cycle` seconds between sentences and returns what
    /// both clients saw. gpsfake holds the log back until both are watching.
    static func run(log: String, cycle: Double = 0.002, tuning: GPSDTuning = GPSDTuning()) async throws -> GPSDReplay {
        let fake = try await GPSFake.start(log: log, options: .init(cycle: cycle))
        defer { fake.stop() }
        let watcher = try await GPSDJSONWatcher.connect(port: fake.port)
        defer { watcher.disconnect() }
        let source = GPSDSource(host: "127.0.0.1", port: fake.port, tuning: tuning)
        let recorder = SourceEventRecorder(source.start())
        defer { source.stop() }

        let watching = await recorder.wait { $0.states.contains(.connected) }
        try #require(watching, "the source never connected: \(recorder.states)")
        let referenceWatching = await waitUntil { watcher.isWatching }
        try #require(referenceWatching, "the reference watcher got no WATCH reply")

        fake.release()
        let lines = Double(FileIO.lineCount(log) ?? 10_000)
        let ended = await recorder.wait(timeout: lines * (cycle + 0.01) + 60) { $0.connectionEnded }
        try #require(ended, "gpsfake never finished the log: \(fake.output.suffix(500))")
        _ = await recorder.wait { _ in watcher.hasEnded }
        source.stop()

        let (reference, timeless) = epochs(from: watcher.reports("TPV"))
        return GPSDReplay(
            events: recorder.snapshot, statistics: source.statistics, reference: reference,
            timelessReferenceReports: timeless, recorded: watcher.received)
    }

    /// Groups consecutive TPVs with the same time; the last of each group stands for the epoch.
    static func epochs(from tpvs: [JSONValue]) -> ([ReferenceEpoch], Int) {
        var epochs: [ReferenceEpoch] = []
        var timeless = 0
        var lastTime: String?
        for tpv in tpvs {
            guard let text = tpv["time"]?.stringValue, let time = UTCTime.parse(text) else {
                timeless += 1
                continue
            }
            let epoch = ReferenceEpoch(
                time: time, mode: tpv["mode"]?.intValue ?? 0, latitude: tpv["lat"]?.numberValue,
                longitude: tpv["lon"]?.numberValue, altitudeMSL: tpv["altMSL"]?.numberValue,
                eph: tpv["eph"]?.numberValue, epv: tpv["epv"]?.numberValue, speed: tpv["speed"]?.numberValue,
                track: tpv["track"]?.numberValue,
                reports: text == lastTime ? (epochs.last?.reports ?? 0) + 1 : 1)
            if text == lastTime {
                epochs[epochs.count - 1] = epoch
            } else {
                epochs.append(epoch)
            }
            lastTime = text
        }
        return (epochs, timeless)
    }

    /// Records an issue for every way the source's fixes differ from gpsd's own epochs.
    func expectFixesMatchReference(sourceLocation: SourceLocation = #_sourceLocation) {
        let fixes = self.fixes
        #expect(
            fixes.count == reference.count, "the source delivered \(fixes.count) epochs, gpsd reported \(reference.count)",
            sourceLocation: sourceLocation)
        for (fix, epoch) in zip(fixes, reference) {
            let when = UTCTime.format(epoch.time)
            guard let time = fix.time, abs(time - epoch.time) < 1e-6 else {
                Issue.record(
                    "epoch \(when): the source delivered time \(fix.time.map { UTCTime.format($0) } ?? "none")",
                    sourceLocation: sourceLocation)
                return
            }
            #expect(fix.mode.rawValue == epoch.mode, "epoch \(when): mode", sourceLocation: sourceLocation)
            func same(_ ours: Double?, _ theirs: Double?, _ tolerance: Double, _ name: String) {
                guard let theirs else { return }
                guard let ours, abs(ours - theirs) <= tolerance else {
                    Issue.record(
                        "epoch \(when): \(name) is \(ours.map { "\($0)" } ?? "unknown"), gpsd said \(theirs)",
                        sourceLocation: sourceLocation)
                    return
                }
            }
            same(fix.latitude, epoch.latitude, 1e-9, "latitude")
            same(fix.longitude, epoch.longitude, 1e-9, "longitude")
            same(fix.altitude, epoch.altitudeMSL, 1e-6, "altitude")
            // gpsd's 0 for a DOP of 0.00 is an unknown estimate here (#29).
            same(fix.horizontalError, epoch.eph == 0 ? nil : epoch.eph, 1e-6, "horizontal error")
            same(fix.verticalError, epoch.epv == 0 ? nil : epoch.epv, 1e-6, "vertical error")
            same(fix.speed, epoch.speed, 1e-6, "speed")
            same(fix.course, epoch.track, 1e-6, "course")
        }
    }
}

extension [SourceEvent] {
    /// True when, after the source first reported `.connected`, it went back to `.connecting`.
    var connectionEnded: Bool {
        let states = self.states
        guard let connected = states.firstIndex(of: .connected) else { return false }
        return states[connected...].contains(.connecting)
    }
}
