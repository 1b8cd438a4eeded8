import LocationCore
import LocationValues
import Testing

@testable import LocationDaemon
import TestSupport

/// `GPSDSource` against a scripted server on a real socket: the misbehaviour
/// a real gpsd rarely shows on demand.
@Suite(.timeLimit(.minutes(10)), .serialized) struct GPSDSourceRobustnessTests {
    static let tpv0 =
        #"{"class":"TPV","device":"/dev/scripted","mode":3,"time":"2026-03-14T12:03:00.000Z","lat":48.1173,"lon":11.5166667,"altMSL":545.4,"eph":17.1,"speed":0.257,"track":54.7}"#
    static let tpv1 =
        #"{"class":"TPV","device":"/dev/scripted","mode":3,"time":"2026-03-14T12:03:01.000Z","lat":48.11731,"lon":11.51668,"altMSL":545.5,"eph":17.1}"#

    static func fast() -> GPSDTuning {
        var tuning = GPSDTuning()
        tuning.backoff = .init(initial: 0.05, multiplier: 2, cap: 0.2, stableAfter: 60)
        tuning.probeAfter = 0.5
        tuning.probeTimeout = 0.5
        return tuning
    }

    /// `body` with a scripted gpsd playing `script` and a `GPSDSource` (fast
    /// tuning) reading it, its events recorded; both stopped after `body`.
    func withScriptedSource(
        _ script: ScriptedGPSDServer.Script,
        _ body: (ScriptedGPSDServer, GPSDSource, SourceEventRecorder) async throws -> Void
    ) async throws {
        let server = try ScriptedGPSDServer(script: script)
        defer { server.shutDown() }
        let source = GPSDSource(host: "127.0.0.1", port: server.port, tuning: Self.fast())
        let recorder = SourceEventRecorder(source.start())
        defer { source.stop() }
        try await body(server, source, recorder)
    }

    @Test func somethingThatDoesNotAnswerLikeGPSDIsReportedAndRetried() async throws {
        let server = try ScriptedGPSDServer(script: .init(greeting: [], watchReply: []))
        defer { server.shutDown() }
        var tuning = Self.fast()
        tuning.handshakeTimeout = 0.5
        let source = GPSDSource(host: "127.0.0.1", port: server.port, tuning: tuning)
        let recorder = SourceEventRecorder(source.start())
        defer { source.stop() }
        // The recorder drains the stream on the cooperative pool, which a
        // full parallel run can keep busy for seconds: wait for what it has
        // received too, not only for the server's count.
        let retried = await recorder.wait { _ in
            server.connections >= 3 && recorder.states.last?.1.contains("did not answer like gpsd") == true
        }
        #expect(retried, "\(recorder.states)")
        #expect(recorder.states.allSatisfy { $0.0 == .connecting })
        #expect(source.statistics.connections == 0)
    }

    @Test func garbageAndUnknownReportsAreSkippedAndTheFixesStillArrive() async throws {
        var script = ScriptedGPSDServer.Script()
        script.reports = [
            "this is not JSON", #"{"class":"FOO","x":1}"#, #"{"class":"TPV","mode":"three"}"#, Self.tpv0,
            #"{"class":"ERROR","message":"Unrecognized request"}"#, "{", Self.tpv1,
        ]
        script.closeAfterReports = true
        try await withScriptedSource(script) { _, source, recorder in
            let both = await recorder.wait { $0.fixes.count >= 2 }
            #expect(both, "\(recorder.snapshot)")
            let fixes = recorder.fixes
            #expect(fixes.first?.time == UTCTime.parse("2026-03-14T12:03:00.000Z"))
            #expect(fixes.first?.latitude == 48.1173)
            #expect(fixes.first?.course == 54.7)
            #expect(fixes.dropFirst().first?.time == UTCTime.parse("2026-03-14T12:03:01.000Z"))
            // The server plays its script again to every connection, like a gpsd
            // restarted on its recording: once the source has reconnected (soon,
            // under load, before these lines run) tpv0 and tpv1 come again and are
            // passed on (the engine starts a new time base, docs/sources.md); an
            // epoch is never delivered twice in a row.
            let times = fixes.compactMap(\.time)
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 != $1 }, "an epoch repeated: \(times)")
        }
    }

    @Test func statusCountsWhatTheSourceReadAndDropped() async throws {
        var script = ScriptedGPSDServer.Script()
        script.reports = [
            Self.tpv0,
            // No time: never a fix.
            #"{"class":"TPV","device":"/dev/scripted","mode":3,"lat":48.2,"lon":11.6}"#,
            // "class" twice after a bad value: left unread (libgps could hang on it).
            #"{"class":"SKY","hdop":"x","class":"SKY"}"#,
            Self.tpv1,
        ]
        try await withScriptedSource(script) { _, source, recorder in
            #expect(await recorder.wait { $0.fixes.count >= 2 }, "\(recorder.snapshot)")
            let counted = await waitUntil(timeout: 10) {
                let c = source.counts
                return c?.fixes == 2 && c?.timeless == 1 && c?.unreadable == 1
            }
            #expect(counted, "\(String(describing: source.counts))")
            let counts = try #require(source.counts)
            #expect(counts.attempts == 1 && counts.connections == 1 && counts.late == 0)
            #expect(counts.lines >= 4, "every report read (the four above, the greeting, the probes' answers)")
            #expect(counts == source.statistics.counts)
        }
    }

    @Test func anOverlongLineEndsTheSessionAndTheSourceReconnects() async throws {
        var script = ScriptedGPSDServer.Script()
        script.reports = [Self.tpv0]
        // Longer than libgps's line buffer, and no newline in sight.
        script.raw = Array(#"{"class":"TPV","junk":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 40_000)
        try await withScriptedSource(script) { _, source, recorder in
            let again = await recorder.wait { events in
                source.statistics.connections >= 2 && !events.fixes.isEmpty
                    && events.contains {
                        if case .state(.connecting, let detail) = $0 { detail.contains("closed the connection") } else { false }
                    }
            }
            #expect(again, "\(recorder.states)")
            #expect(recorder.fixes.count == 1, "the one good epoch, once")
        }
    }

    @Test func aGPSDThatStopsAnsweringIsDroppedAndReconnected() async throws {
        var script = ScriptedGPSDServer.Script()
        script.reports = [Self.tpv0]
        script.answersProbes = false
        try await withScriptedSource(script) { _, source, recorder in
            let again = await recorder.wait { events in
                source.statistics.connections >= 2
                    && events.contains {
                        if case .state(.connecting, let detail) = $0 { detail.contains("stopped answering") } else { false }
                    }
            }
            #expect(again, "\(recorder.states)")
            #expect(recorder.fixes.count == 1, "the one epoch, once, however often the source reconnects")
        }
    }

    @Test func aGPSDWithoutReceiversSaysSo() async throws {
        var script = ScriptedGPSDServer.Script()
        script.watchReply = [#"{"class":"DEVICES","devices":[]}"#, #"{"class":"WATCH","enable":true,"json":true}"#]
        try await withScriptedSource(script) { server, source, recorder in
            let connected = await recorder.wait { $0.states.contains(.connected) }
            #expect(connected)
            // The first connected state says it. (A later watch renewal — the probe after a
            // silence, which a slow test run reaches — gets DEVICES again and says
            // "gpsd has no receiver" without "yet": not what this test is about.)
            let first = recorder.states.first { $0.0 == .connected }
            #expect(first?.1 == "connected to gpsd scripted at 127.0.0.1:\(server.port); gpsd has no receiver yet", "\(recorder.states)")
        }
    }

    /// Lines on which libgps 3.22's gps_unpack never returns (a DEVICES of more
    /// than its 4 receivers, "class" named twice after a bad value): before the
    /// shim kept them from libgps, the reader thread hung on the first one and
    /// no fix was logged again.
    @Test(.timeLimit(.minutes(2)))
    func linesThatWouldHangLibgpsAreCountedAndTheFixesStillArrive() async throws {
        let device = #"{"class":"DEVICE","path":"/dev/scripted","activated":"2026-03-14T12:00:00.000Z"}"#
        var script = ScriptedGPSDServer.Script()
        script.watchReply = [
            #"{"class":"DEVICES","devices":["# + Array(repeating: device, count: 6).joined(separator: ",") + "]}",
            #"{"class":"WATCH","enable":true,"json":true}"#,
        ]
        script.reports = [
            #"{"class":"TPV","lat":"x","class":"TPV"}"#, Self.tpv0, #"{"class":"SKY","hdop":"x","class":"SKY"}"#,
            Self.tpv1,
        ]
        try await withScriptedSource(script) { server, source, recorder in
            let both = await recorder.wait { $0.fixes.count >= 2 }
            #expect(both, "\(recorder.snapshot)")
            #expect(recorder.fixes.first?.latitude == 48.1173)
            #expect(source.statistics.unreadableReports >= 2)
            let first = recorder.states.first { $0.0 == .connected }
            #expect(first?.1 == "connected to gpsd scripted at 127.0.0.1:\(server.port)", "six receivers are receivers")
        }
    }

    @Test func aReceiverClosedByGPSDEndsTheFixState() async throws {
        var script = ScriptedGPSDServer.Script()
        script.reports = [Self.tpv0, Self.tpv1, #"{"class":"DEVICE","path":"/dev/scripted","activated":0}"#]
        try await withScriptedSource(script) { _, source, recorder in
            let closed = await recorder.wait { events in
                events.contains { if case .state(.connected, let detail) = $0 { detail.contains("closed receiver") } else { false } }
            }
            #expect(closed, "\(recorder.states)")
            #expect(recorder.fixes.count == 2, "the epoch in progress is delivered when the receiver goes")
            #expect(recorder.snapshot.states == [.connecting, .connected, .fix, .connected])
        }
    }

    @Test(arguments: [("127.0.0.1", 70000), ("127.0.0.1", 0), ("shared memory", 2947), ("", 2947)])
    func anUnusableEndpointIsReportedNotThrown(host: String, port: Int) async throws {
        let source = GPSDSource(host: host, port: port, tuning: Self.fast())
        let recorder = SourceEventRecorder(source.start())
        defer { source.stop() }
        let reported = await recorder.wait { $0.states.count >= 2 }
        #expect(reported)
        #expect(recorder.states.allSatisfy { $0.0 == .connecting })
        #expect(recorder.states.last?.1.contains("is not usable") == true, "\(recorder.states)")
        #expect(!source.hasReaderFinished, "the source keeps trying; it never ends on its own")
    }

    @Test func stopEndsTheReaderPromptlyWhileItWaitsToRetry() async throws {
        let port = try GPSFake.freePort()
        let source = GPSDSource(host: "127.0.0.1", port: port)
        let recorder = SourceEventRecorder(source.start())
        // Four attempts in, the reader sleeps a second or more before the next.
        try #require(await recorder.wait { _ in source.statistics.connectionAttempts >= 4 })
        let clock = ContinuousClock()
        let began = clock.now
        source.stop()
        #expect(clock.now - began < .seconds(1), "stop() should not wait out the backoff")
        #expect(source.hasReaderFinished, "the reader thread itself should be gone, not just the stream")
        #expect(await recorder.waitForFinish())
    }

    @Test func aSecondStartGivesAFinishedStream() async throws {
        let source = GPSDSource(host: "127.0.0.1", port: try GPSFake.freePort())
        let first = SourceEventRecorder(source.start())
        let second = SourceEventRecorder(source.start())
        #expect(await second.waitForFinish())
        #expect(second.snapshot.isEmpty)
        source.stop()
        #expect(await first.waitForFinish())
    }
}
