import LocationCore
import Synchronization
import Testing
import TestSupport

@testable import LocationDaemon

#if canImport(Glibc)
import Glibc
import LocationCodecs
import LocationConfig
import LocationProtocol
import LocationValues
#endif

/// The gpsd source's raw connections (`raw_log`; docs/sources.md, "Raw capture from gpsd")
/// against a real gpsd fed by gpsfake: one per receiver gpsd lists while the sink wants raw
/// bytes, each receiver's bytes apart and whole, and nothing left open when they are not wanted.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: GPSFake.isAvailable, "needs gpsfake (gpsd-clients), gpsd and python3-gps"))
struct GPSDRawCaptureTests {
    /// A sink that wants raw bytes while `wants` says so, and keeps every event; taken from the
    /// reader's thread and the raw thread.
    final class RawSink: SourceSink {
        let wants: Atomic<Bool>
        private let events = Mutex<[SourceEvent]>([])
        private let idles = Atomic<Int>(0)

        init(wants: Bool) { self.wants = Atomic(wants) }

        var wantsRawBytes: Bool { wants.load(ordering: .relaxed) }
        func take(_ event: SourceEvent) -> Bool {
            events.withLock { $0.append(event) }
            return true
        }
        func idle() -> Double? {
            idles.add(1, ordering: .relaxed)
            return nil
        }
        func finish() {}

        var snapshot: [SourceEvent] { events.withLock { $0 } }
        /// Each receiver's raw bytes so far, in order.
        var raw: [String: [UInt8]] {
            var bytes: [String: [UInt8]] = [:]
            for case .raw(let device, let chunk, _) in snapshot { bytes[device, default: []] += chunk }
            return bytes
        }
        var rawChunks: Int { snapshot.filter { if case .raw = $0 { true } else { false } }.count }
        var fixes: [Fix] { snapshot.fixes }
    }

    @Test func eachReceiverGpsdListsHasItsOwnRawBytesWholeAndInOrder() async throws {
        let dir = try ScratchDirectory("gpsd-raw")
        let nmea = NMEALogWriter.write(NMEALogWriter.walk(count: 8, sentences: [.gga, .gsa, .rmc, .vtg]), name: "raw-nmea")
        defer { unlink(nmea) }
        let ubx = dir.file("ubx.log")
        let binary = try UBXMessages.writeLog(epochs: 4, to: ubx)
        let text = try GPSFake.sentences(of: nmea)
        let fake = try await GPSFake.start(logs: [nmea, ubx], options: .init(cycle: 0.01, once: true, gated: true, linger: 60))
        defer { fake.stop() }
        let sink = RawSink(wants: true)
        let source = GPSDSource(host: "127.0.0.1", port: fake.port)
        source.start(into: sink)
        defer { source.stop() }

        // Released once both raw connections stream: gpsd forwards only what comes after the watch.
        let both = await waitUntil(timeout: 60) { source.rawCaptureDevices.count == 2 }
        try #require(both, "raw connections: \(source.rawCaptureDevices)")
        #expect(LoopbackTCP.connections(toPort: fake.port, of: getpid()) == 3, "the reader's and one per receiver")
        fake.release()
        let whole = await waitUntil(timeout: 60) {
            Set(sink.raw.values.map(\.count)) == [text.count, binary.count]
        }
        let raw = sink.raw
        #expect(whole, "\(raw.mapValues(\.count)), wanted \(text.count) and \(binary.count)")
        // Each receiver's bytes under its own name: the NMEA one's as its fixes name it.
        let named = try #require(sink.fixes.compactMap(\.device).first)
        #expect(raw[named] == text)
        let other = try #require(raw.keys.first { $0 != named })
        #expect(raw[other] == binary, "the UBX receiver's bytes, its INF text that reads like gpsd's WATCH included")
        #expect(raw.count == 2, "two receivers, two streams")
        #expect(!raw.values.contains { $0.starts(with: Array(#"{"class":"VERSION""#.utf8)) }, "gpsd's greeting is not the receiver's")

        source.stop()
        #expect(source.hasReaderFinished)
        #expect(!source.rawThread.running, "the raw thread ended with the reader")
        #expect(LoopbackTCP.connections(toPort: fake.port, of: getpid()) == 0)
        _ = dir
    }

    @Test func rawConnectionsFollowTheSinkAndGpsdsReceivers() async throws {
        let path = NMEALogWriter.write(NMEALogWriter.walk(count: 30), name: "raw-follow")
        defer { unlink(path) }
        let fake = try await GPSFake.start(log: path, options: .init(cycle: 0.02, once: false, gated: false))
        defer { fake.stop() }
        let sink = RawSink(wants: false)
        let source = GPSDSource(host: "127.0.0.1", port: fake.port)
        source.start(into: sink)
        defer { source.stop() }
        let mine = { LoopbackTCP.connections(toPort: fake.port, of: getpid()) }

        // No raw_log: fixes come, and no raw connection, thread or byte with them.
        try #require(await waitUntil(timeout: 60) { sink.fixes.count >= 5 }, "no fixes")
        let device = try #require(sink.fixes.compactMap(\.device).first)
        #expect(source.rawThread.started == 0)
        #expect(sink.rawChunks == 0)
        #expect(mine() == 1, "only the reader's connection")

        // A reload adds one: a raw connection to the receiver, and its bytes.
        sink.wants.store(true, ordering: .relaxed)
        #expect(await waitUntil(timeout: 30) { source.rawCaptureDevices == [device] && mine() == 2 })
        #expect(await waitUntil(timeout: 30) { (sink.raw[device]?.count ?? 0) > 500 })

        // gpsd removes the receiver: its raw connection closes, and the raw thread ends.
        #expect(await fake.control("-\(device)") == "OK")
        #expect(await waitUntil(timeout: 30) { source.rawCaptureDevices.isEmpty && !source.rawThread.running && mine() == 1 })
        // gpsd adds it again: the connection comes back.
        #expect(await fake.control("+\(device)") == "OK")
        #expect(await waitUntil(timeout: 30) { source.rawCaptureDevices == [device] && mine() == 2 })
        let before = sink.raw[device]?.count ?? 0
        #expect(await waitUntil(timeout: 30) { (sink.raw[device]?.count ?? 0) > before + 500 }, "bytes flow again")

        // A reload takes the raw_log away: closed, the thread ended, nothing more sent.
        sink.wants.store(false, ordering: .relaxed)
        #expect(await waitUntil(timeout: 30) { source.rawCaptureDevices.isEmpty && !source.rawThread.running && mine() == 1 })
        let stopped = sink.rawChunks
        let fixes = sink.fixes.count
        #expect(await waitUntil(timeout: 30) { sink.fixes.count >= fixes + 5 })
        #expect(sink.rawChunks == stopped, "no raw bytes once not wanted")
        #expect(source.rawThread.started == 2)

        source.stop()
        #expect(mine() == 0)
    }

    @Test func rawConnectionsCloseWhenGpsdGoesAwayAndOpenWhenItIsBack() async throws {
        let path = NMEALogWriter.write(NMEALogWriter.walk(count: 30), name: "raw-restart")
        defer { unlink(path) }
        let looping = GPSFake.Options(cycle: 0.02, once: false, gated: false)
        let first = try await GPSFake.start(log: path, options: looping)
        defer { first.stop() }
        let sink = RawSink(wants: true)
        let source = GPSDSource(host: "127.0.0.1", port: first.port)
        source.start(into: sink)
        defer { source.stop() }

        try #require(await waitUntil(timeout: 60) { source.rawCaptureDevices.count == 1 && !sink.raw.isEmpty })
        #expect(first.killGPSD())
        #expect(await waitUntil(timeout: 30) { source.rawCaptureDevices.isEmpty && !source.rawThread.running })
        #expect(await first.waitForExit(timeout: 60))

        var options = looping
        options.port = first.port
        let second = try await GPSFake.start(log: path, options: options, replacing: first)
        defer { second.stop() }
        let count = sink.raw.values.map(\.count).reduce(0, +)
        let back = await waitUntil(timeout: 60) {
            source.rawCaptureDevices.count == 1 && sink.raw.values.map(\.count).reduce(0, +) > count + 500
        }
        #expect(back, "raw connections: \(source.rawCaptureDevices)")
        #expect(LoopbackTCP.connections(toPort: second.port, of: getpid()) == 2)

        source.stop()
        #expect(!source.rawThread.running)
        #expect(LoopbackTCP.connections(toPort: second.port, of: getpid()) == 0)
    }

    @Test func aReceiverGpsdDoesNotHaveIsRefusedAndTriedAgainWithoutHarm() async throws {
        // gpsd answers a raw watch of a device it does not have with an ERROR alone.
        let path = NMEALogWriter.write(NMEALogWriter.walk(count: 30), name: "raw-refused")
        defer { unlink(path) }
        let fake = try await GPSFake.start(log: path, options: .init(cycle: 0.02, once: false, gated: false))
        defer { fake.stop() }
        let wakeup = try Wakeup()
        let sink = RawSink(wants: true)
        let control = GPSDReaderControl(wakeup: wakeup, sink: sink, raw: GPSDRawLinks(host: "127.0.0.1", port: fake.port))
        control.raw.want(["/dev/no-such-receiver"], control: control)
        #expect(await waitUntil(timeout: 30) { control.raw.isRunning })
        // Tried, refused, and tried again after its delay (0.5 s, then 1 s): never streaming, never a byte.
        #expect(await waitUntil(timeout: 30) { control.raw.attempts >= 3 })
        #expect(control.raw.streamingDevices.isEmpty)
        #expect(sink.rawChunks == 0)
        control.raw.finish(grace: 5)
        #expect(!control.raw.isRunning)
    }
}
