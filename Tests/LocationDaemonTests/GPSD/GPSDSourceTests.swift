import LocationCore
import Testing
import TestSupport

@testable import LocationDaemon

#if canImport(Glibc)
import Glibc
#endif

/// `GPSDSource` against a real gpsd fed by gpsfake.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: GPSFake.isAvailable, "needs gpsfake (gpsd-clients), gpsd and python3-gps"))
struct GPSDSourceTests {
    /// Generated logs, so these tests need nothing outside the package.
    enum GeneratedLog: String, CaseIterable, CustomTestStringConvertible {
        /// GGA, GSA, RMC every second.
        case walk
        /// One epoch loses its RMC: gpsd 3.22 then treats GGA as an end of
        /// cycle too, and reports every later epoch twice (after GGA, then after RMC).
        case droppedRMC
        /// GGA, RMC, VTG: course and speed twice per epoch.
        case withVTG

        var epochs: [NMEALogWriter.Epoch] {
            switch self {
            case .walk:
                NMEALogWriter.walk(count: 12)
            case .droppedRMC:
                NMEALogWriter.walk(count: 12) { index, epoch in
                    if index == 1 { epoch.sentences = [.gga, .gsa] }
                }
            case .withVTG:
                NMEALogWriter.walk(count: 12, sentences: [.gga, .rmc, .vtg])
            }
        }

        var testDescription: String { rawValue }

        func write() -> String { NMEALogWriter.write(epochs, name: rawValue) }
    }

    @Test(arguments: GeneratedLog.allCases)
    func fixesEqualGPSDsOwnViewOfTheSameLog(log: GeneratedLog) async throws {
        let path = log.write()
        defer { unlink(path) }
        let replay = try await GPSDReplay.run(log: path)
        #expect(!replay.reference.isEmpty)
        replay.expectFixesMatchReference()
        #expect(replay.statistics.tpvReports == replay.reference.reduce(0) { $0 + $1.reports } + replay.timelessReferenceReports)
    }

    @Test func severalTPVsPerEpochAreDeliveredOnceAsTheMostCompleteReport() async throws {
        let path = GeneratedLog.droppedRMC.write()
        defer { unlink(path) }
        let replay = try await GPSDReplay.run(log: path)
        let repeated = replay.reference.filter { $0.reports > 1 }
        try #require(repeated.count >= 5, "gpsd 3.22 should report these epochs more than once")

        let times = replay.fixes.compactMap(\.time)
        #expect(Set(times).count == times.count, "no epoch is delivered twice")
        replay.expectFixesMatchReference()
        for fix in replay.fixes where fix.mode == .threeD {
            #expect(fix.course != nil, "the RMC's course is in every delivered epoch")
        }
        #expect(replay.statistics.lateReports == 0)
        #expect(replay.statistics.earlyEpochs > 0, "once learnt, complete epochs go out without waiting a cycle")
    }

    @Test func aFixWithoutTimeIsNeverDelivered() async throws {
        // GGA carries the time of day but no date; until an RMC brings one,
        // gpsd reports positions without a time.
        let epochs = NMEALogWriter.walk(count: 4, sentences: [.gga, .gsa])
            + NMEALogWriter.walk(count: 8).dropFirst(4)
        let path = NMEALogWriter.write(epochs, name: "timeless")
        defer { unlink(path) }
        let replay = try await GPSDReplay.run(log: path)
        try #require(replay.timelessReferenceReports >= 4, "gpsd should report the dateless fixes without a time")
        #expect(replay.fixes.allSatisfy { $0.time != nil })
        #expect(replay.statistics.timelessReports == replay.timelessReferenceReports)
        replay.expectFixesMatchReference()
        #expect(replay.fixes.first.map { $0.time ?? 0 } ?? 0 >= epochs[4].time)
    }

    @Test func aLogWithoutAnyTimeDeliversNothingAndNeverClaimsAFix() async throws {
        let path = NMEALogWriter.write(NMEALogWriter.walk(count: 6, sentences: [.gga, .gsa]), name: "dateless")
        defer { unlink(path) }
        let replay = try await GPSDReplay.run(log: path)
        try #require(replay.timelessReferenceReports >= 6)
        #expect(replay.fixes.isEmpty)
        #expect(!replay.events.states.contains(.fix))
    }

    @Test func reconnectsAndContinuesAfterGPSDIsKilledAndRestarted() async throws {
        let path = NMEALogWriter.write(NMEALogWriter.walk(count: 30), name: "restart")
        defer { unlink(path) }
        let looping = GPSFake.Options(cycle: 0.02, once: false, gated: false)
        let first = try await GPSFake.start(log: path, options: looping)
        defer { first.stop() }
        let source = GPSDSource(host: "127.0.0.1", port: first.port)
        let recorder = SourceEventRecorder(source.start())
        defer { source.stop() }

        try #require(await recorder.wait { $0.fixes.count >= 3 }, "no fixes: \(recorder.states)")
        let before = recorder.snapshot.count
        #expect(first.killGPSD())
        let noticed = await recorder.wait { Array($0[before...]).states.contains(.connecting) }
        #expect(noticed, "the source should report that gpsd is gone")
        #expect(await first.waitForExit(timeout: 60))

        var options = looping
        options.port = first.port
        let second = try await GPSFake.start(log: path, options: options, replacing: first)
        defer { second.stop() }
        let resumed = await recorder.wait { events in
            let after = Array(events[before...])
            guard let back = after.firstIndex(where: { if case .state(.connected, _) = $0 { true } else { false } })
            else { return false }
            return Array(after[back...]).fixes.count >= 3
        }
        #expect(resumed, "the source should reconnect and deliver fixes again: \(recorder.states)")

        let after = Array(recorder.snapshot[before...]).states
        let lost = after.firstIndex(of: .connecting)
        let reconnected = after.firstIndex(of: .connected)
        #expect(lost != nil && reconnected != nil && lost! < reconnected!)
        // One connection to each gpsd: the first, and the second's (on a loaded machine the harness
        // may start the second more than once, when gpsd never got gpsfake's receiver: the source
        // connects to each of those gpsds too, and gets no fix from it until it is replaced).
        #expect(
            (2...(1 + second.startAttempt)).contains(source.statistics.connections),
            "\(source.statistics.connections) connections, the second gpsd started in \(second.startAttempt) tries")
        // gpsfake needs a second or two to bring gpsd back; the backoff
        // (0.125 s doubling to 5 s) spends only a handful of attempts on that.
        #expect(source.statistics.connectionAttempts <= 12, "\(source.statistics)")

        source.stop()
        #expect(source.hasReaderFinished)
        #expect(await recorder.waitForFinish())
    }

    @Test func fixesResumeAfterGPSDRestartsItselfOnSIGHUP() async throws {
        // gpsd 3.22 on SIGHUP closes its receivers and stops serving existing
        // clients without closing them; they hear nothing until they speak.
        let path = NMEALogWriter.write(NMEALogWriter.walk(count: 30), name: "sighup")
        defer { unlink(path) }
        let fake = try await GPSFake.start(log: path, options: .init(cycle: 0.02, once: false, gated: false))
        defer { fake.stop() }
        var tuning = GPSDTuning()
        tuning.probeAfter = 1
        tuning.probeTimeout = 1
        let source = GPSDSource(host: "127.0.0.1", port: fake.port, tuning: tuning)
        let recorder = SourceEventRecorder(source.start())
        defer { source.stop() }

        try #require(await recorder.wait { $0.fixes.count >= 3 })
        let gpsd = try #require(fake.gpsdPID())
        let before = recorder.snapshot.count
        #expect(kill(gpsd, SIGHUP) == 0)
        let resumed = await recorder.wait { Array($0[before...]).fixes.count >= 3 }
        #expect(resumed, "fixes should flow again after the restart: \(recorder.states)")
        #expect(fake.gpsdPID() == gpsd, "the same gpsd, restarted in place")
    }

    @Test func aSilentGPSDIsProbedAndTheSourceSaysTheReceiverIsQuiet() async throws {
        let path = NMEALogWriter.write(NMEALogWriter.walk(count: 8), name: "quiet")
        defer { unlink(path) }
        let fake = try await GPSFake.start(log: path, options: .init(cycle: 0.01))
        defer { fake.stop() }
        var tuning = GPSDTuning()
        tuning.probeAfter = 1
        tuning.probeTimeout = 2
        let source = GPSDSource(host: "127.0.0.1", port: fake.port, tuning: tuning)
        let recorder = SourceEventRecorder(source.start())
        defer { source.stop() }
        try #require(await recorder.wait { $0.states.contains(.connected) })
        fake.release(sentences: 12)
        try #require(await recorder.wait { $0.states.contains(.fix) })
        let before = recorder.snapshot.count
        // Four epochs, then gpsfake holds the rest back: the receiver is open
        // and silent. gpsd answers the probes, so the link stays up, and the
        // state says the receiver has gone quiet.
        let quiet = await recorder.wait { events in
            Array(events[before...]).contains {
                if case .state(.connected, let detail) = $0 { detail.contains("no report from the receiver") } else { false }
            }
        }
        #expect(quiet, "\(recorder.states)")
        // Probes go out a second into each silence and gpsd answers each (DEVICES and WATCH):
        // eight more reports are four probes or more, over longer than the 2 s a probe may take.
        let reportsWhenQuiet = source.statistics.reports
        #expect(
            await waitUntil { source.statistics.reports >= reportsWhenQuiet + 8 },
            "probes answered: \(source.statistics.reports - reportsWhenQuiet) reports since it went quiet")
        #expect(source.statistics.connections == 1, "a gpsd that answers its probes is not reconnected")
        #expect(!Array(recorder.snapshot[before...]).states.contains(.connecting))
    }

    @Test func keepsRetryingWithCappedBackoffWhileGPSDIsDownAndConnectsOnceItIsUp() async throws {
        let port = try GPSFake.freePort()
        // A short cap: uncapped doubling from 50 ms would need ~13 s for eight attempts.
        var tuning = GPSDTuning()
        tuning.backoff = .init(initial: 0.05, multiplier: 2, cap: 0.2, stableAfter: 5)
        let source = GPSDSource(host: "127.0.0.1", port: port, tuning: tuning)
        let recorder = SourceEventRecorder(source.start())
        defer { source.stop() }

        let retried = await recorder.wait { _ in source.statistics.connectionAttempts >= 8 }
        #expect(retried, "attempts so far: \(source.statistics.connectionAttempts)")
        let states = recorder.states
        #expect(states.allSatisfy { $0.0 == .connecting })
        #expect(states.count == 2, "one 'connecting', one failure reason, however many retries: \(states)")
        #expect(states.last?.1.contains("127.0.0.1:\(port)") == true)
        #expect(states.last?.1.contains("can't connect") == true)

        let path = NMEALogWriter.write(NMEALogWriter.walk(count: 30), name: "late-gpsd")
        defer { unlink(path) }
        let fake = try await GPSFake.start(
            log: path, options: .init(cycle: 0.02, once: false, gated: false, port: port))
        defer { fake.stop() }
        let connected = await recorder.wait { $0.fixes.count >= 2 }
        #expect(connected, "the source should connect once gpsd is up: \(recorder.states)")
        // One connection to each gpsd the harness started on the port: a try it stopped in one of
        // gpsfake's races (a loaded machine) had a gpsd the source may have reached first.
        #expect(
            (1...fake.startAttempt).contains(source.statistics.connections),
            "\(source.statistics.connections) connections, gpsd started in \(fake.startAttempt) tries")
    }

    @Test func stopEndsTheReaderPromptlyWhileConnectedAndIdle() async throws {
        let path = NMEALogWriter.write(NMEALogWriter.walk(count: 3), name: "idle")
        defer { unlink(path) }
        let fake = try await GPSFake.start(log: path)  // gated and never released: gpsd stays silent
        defer { fake.stop() }
        let source = GPSDSource(host: "127.0.0.1", port: fake.port)
        let recorder = SourceEventRecorder(source.start())
        try #require(await recorder.wait { $0.states.contains(.connected) })
        source.stop()
        #expect(source.hasReaderFinished)
        #expect(await recorder.waitForFinish())
        #expect(recorder.fixes.isEmpty)
    }
}
