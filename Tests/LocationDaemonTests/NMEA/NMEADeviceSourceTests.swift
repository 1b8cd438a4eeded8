#if canImport(Glibc)
import Glibc
#endif
import CSupport
import LocationCore
import LocationValues
import LocationDaemon
import Testing
import TestSupport

/// NMEADeviceSource against a pseudo-terminal standing in for a receiver, a
/// FIFO and a plain file: real devices, real reads.
@Suite(.timeLimit(.minutes(10))) struct NMEADeviceSourceTests {
    @Test func serialDeviceIsSetRawAtTheBaudAndDeliversEveryEpoch() async throws {
        let receiver = try NMEAFakeReceiver()
        let source = NMEADeviceSource(path: receiver.devicePath, baud: 4800)
        let log = NMEAEventLog(source.start())
        defer { source.stop() }
        #expect(await log.wait { $0.count(.connected, containing: "4800 baud") == 1 })
        receiver.releaseTerminal()
        #expect(csupport_tty_speed(receiver.controller) == 4800)
        #expect(csupport_tty_is_raw(receiver.controller) == 1)

        receiver.send(NMEASourceText.epoch(0) + NMEASourceText.epoch(1) + NMEASourceText.epoch(2))
        // The third epoch has no successor: it comes out after the line goes quiet.
        #expect(await log.wait { $0.fixes.count == 3 })
        #expect(log.fixes.map(NMEASourceText.second) == [0, 1, 2])
        #expect(log.fixes.allSatisfy { $0.mode == .threeD && $0.isUsable })
        #expect(log.count(.fix) == 1)  // one transition, not one per fix
        // The state change comes before the first fix.
        let firstFix = log.events.firstIndex { if case .fix = $0 { true } else { false } }
        let fixState = log.events.firstIndex { $0 == .state(.fix, detail: "the receiver reports a 3D fix") }
        #expect(fixState != nil && firstFix != nil && (fixState ?? 0) < (firstFix ?? 0))
    }

    @Test func unpluggedDeviceIsReopenedWhenItIsBack() async throws {
        let scratch = try ScratchDirectory("nmea")
        let first = try NMEAFakeReceiver()
        try scratch.link("gps", to: first.devicePath)
        let source = NMEADeviceSource(path: scratch.path + "/gps", baud: 9600)
        let log = NMEAEventLog(source.start())
        defer { source.stop() }
        #expect(await log.wait { $0.count(.connected) == 1 })
        first.releaseTerminal()
        first.send(NMEASourceText.epoch(0) + NMEASourceText.epoch(1))
        #expect(await log.wait { $0.fixes.count == 2 })

        // Unplugged: the device node goes away too.
        first.unplug()
        try scratch.link("gps", to: scratch.path + "/nothing-here")
        #expect(await log.wait { $0.count(.connecting, containing: "cannot open") >= 1 })
        #expect(log.count(.connecting, containing: "hung up") + log.count(.connecting, containing: "gone") >= 1)

        // Plugged back in (a new device node).
        let second = try NMEAFakeReceiver()
        try scratch.link("gps", to: second.devicePath)
        #expect(await log.wait { $0.count(.connected) == 2 })
        second.releaseTerminal()
        second.send(NMEASourceText.epoch(5) + NMEASourceText.epoch(6))
        #expect(await log.wait { $0.fixes.count == 4 })
        #expect(log.fixes.map(NMEASourceText.second) == [0, 1, 5, 6])
        #expect(!log.ended)
    }

    @Test func missingDeviceIsRetriedUntilItAppears() async throws {
        let scratch = try ScratchDirectory("nmea")
        let source = NMEADeviceSource(path: scratch.path + "/ttyACM0", baud: 9600)
        let log = NMEAEventLog(source.start())
        defer { source.stop() }
        #expect(await log.wait { $0.count(.connecting, containing: "No such file") >= 2 })
        #expect(log.states.first?.1.contains("retrying in 250 ms") == true)
        let receiver = try NMEAFakeReceiver()
        try scratch.link("ttyACM0", to: receiver.devicePath)
        #expect(await log.wait { $0.count(.connected) == 1 })
        receiver.releaseTerminal()
        receiver.send(NMEASourceText.epoch(0))
        #expect(await log.wait { $0.fixes.count == 1 })
    }

    @Test func receiverLosingItsFixIsReportedOnceEachWay() async throws {
        let (receiver, source, log) = try await connectedReceiver()
        defer { source.stop() }
        var text = ""
        for second in 0..<8 { text += NMEASourceText.epoch(second, fix: !(3...5).contains(second)) }
        receiver.send(text)
        #expect(await log.wait { $0.fixes.count == 8 })
        #expect(log.fixes.map(\.mode) == [.threeD, .threeD, .threeD, .noFix, .noFix, .noFix, .threeD, .threeD])
        #expect(log.states.map(\.0) == [.connected, .fix, .noFix, .fix])
    }

    /// Epochs without a date (no RMC yet) give no fix, and the reader says why once; the first dated
    /// epoch is its fix.
    @Test func aReceiverWithoutADateYetIsReportedAsNoFixUntilOneComes() async throws {
        let (receiver, source, log) = try await connectedReceiver()
        defer { source.stop() }
        func undated(_ second: Int) -> String {
            NMEASourceText.sentence("GPGGA,12000\(second).00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,")
                + NMEASourceText.sentence("GPGSA,A,3,05,07,12,30,,,,,,,,,1.5,0.9,1.2")
        }
        receiver.send(undated(0) + undated(1) + undated(2))
        #expect(await log.wait { $0.count(.noFix, containing: "no time and date yet") == 1 })
        #expect(log.fixes.isEmpty)
        // The third undated epoch ends with the line's silence (and is counted); a read after it adds none.
        #expect(await waitUntil(timeout: 10) { source.counts?.timeless == 3 }, "\(String(describing: source.counts))")
        receiver.send(NMEASourceText.epoch(5))
        #expect(await log.wait { $0.fixes.count == 1 })
        #expect(log.fixes.map(NMEASourceText.second) == [5])
        #expect(log.states.map(\.0) == [.connected, .noFix, .fix])
        #expect(log.count(.noFix) == 1)
    }

    @Test func fifoIsReopenedWhenItsWriterCloses() async throws {
        let scratch = try ScratchDirectory("nmea")
        let fifo = scratch.path + "/nmea.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let source = NMEADeviceSource(path: fifo, baud: 9600)
        let log = NMEAEventLog(source.start())
        defer { source.stop() }
        #expect(await log.wait { $0.count(.connecting, containing: "waiting for a writer") == 1 })

        for (session, seconds) in [(1, [0, 1, 2]), (2, [10, 11])] {
            let writer = open(fifo, O_WRONLY | O_CLOEXEC)
            #expect(writer >= 0)
            let text = seconds.map { NMEASourceText.epoch($0) }.joined()
            _ = text.utf8CString.withUnsafeBufferPointer { write(writer, $0.baseAddress, $0.count - 1) }
            close(writer)
            #expect(await log.wait { $0.count(.connecting, containing: "writer closed") == session })
        }
        #expect(await log.wait { $0.fixes.count == 5 })
        #expect(log.fixes.map(NMEASourceText.second) == [0, 1, 2, 10, 11])
        #expect(log.count(.connected, containing: "FIFO") == 2)
    }

    @Test func plainFileIsReadToItsEndThenFollowed() async throws {
        let scratch = try ScratchDirectory("nmea")
        let file = scratch.path + "/track.nmea"
        try FileIO.write(file, (0..<4).map { NMEASourceText.epoch($0) }.joined())
        let source = NMEADeviceSource(path: file, baud: 9600)
        let log = NMEAEventLog(source.start())
        #expect(await log.wait { $0.count(.endOfFile, containing: "at end of file") == 1 })
        #expect(log.fixes.map(NMEASourceText.second) == [0, 1, 2, 3])

        try FileIO.append(file, Array((4..<6).map { NMEASourceText.epoch($0) }.joined().utf8))
        #expect(await log.wait { $0.fixes.count == 6 })
        #expect(await log.wait { $0.count(.endOfFile, containing: "at end of file") == 2 })

        source.stop()
        #expect(await log.wait { $0.ended })
    }

    /// The sky goes out when it changed, named by the path, and not again while it stays the same
    /// (what `status` and the programs show comes from these), whatever the reads' chunks.
    @Test func theSkyIsHandedOnWhenItChangesNamedByThePath() async throws {
        let (receiver, source, log) = try await connectedReceiver()
        defer { source.stop() }
        func skies(_ log: NMEAEventLog) -> [SkyView] {
            log.events.compactMap { if case .sky(let view) = $0 { view } else { nil } }
        }

        receiver.send(NMEASourceText.epoch(0))
        #expect(await log.wait { $0.fixes.count == 1 && skies($0).last?.satellitesUsed == $0.fixes.first?.satellitesUsed })
        let first = skies(log)
        #expect(first.last?.pdop == 1.5 && first.last?.vdop == 1.2, "\(first)")
        #expect(first.allSatisfy { $0.device == receiver.devicePath }, "\(first)")

        receiver.send(NMEASourceText.epoch(1))
        #expect(await log.wait { $0.fixes.count == 2 })
        // Epoch 2 as `NMEASourceText.epoch` writes it, with other DOPs in its GSA.
        receiver.send(
            NMEASourceText.sentence("GPGGA,120002.00,4807.002,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,")
                + NMEASourceText.sentence("GPGSA,A,3,05,07,12,30,,,,,,,,,2.5,0.9,2.2")
                + NMEASourceText.sentence("GPRMC,120002.00,A,4807.002,N,01131.324,E,0.5,54.7,140326,,,A"))
        #expect(await log.wait { $0.fixes.count == 3 && skies($0).last?.pdop == 2.5 })
        let all = skies(log)
        #expect(all.filter { $0.pdop == 1.5 }.count == first.count, "epoch 1's sky was epoch 0's: not handed on again; \(all)")
        #expect(all.last?.vdop == 2.2 && all.last?.device == receiver.devicePath, "\(all)")
    }

    @Test func aReplacedFileIsReadFromItsStart() async throws {
        let scratch = try ScratchDirectory("nmea")
        let file = scratch.path + "/track.nmea"
        try FileIO.write(file, (0..<2).map { NMEASourceText.epoch($0) }.joined())
        let source = NMEADeviceSource(path: file, baud: 9600)
        let log = NMEAEventLog(source.start())
        defer { source.stop() }
        #expect(await log.wait { $0.count(.endOfFile, containing: "at end of file") == 1 })
        // Rotated: a new file takes the name (written aside, then renamed over).
        let fresh = scratch.path + "/track.nmea.new"
        try FileIO.write(fresh, (20..<23).map { NMEASourceText.epoch($0) }.joined())
        #expect(rename(fresh, file) == 0)
        #expect(await log.wait { $0.count(.connecting, containing: "replaced") == 1 })
        #expect(await log.wait { $0.fixes.count == 5 })
        #expect(log.fixes.map(NMEASourceText.second) == [0, 1, 20, 21, 22])
    }

    @Test func garbageAtTheWrongBaudRateIsPointedOut() async throws {
        let (receiver, source, log) = try await connectedReceiver(baud: 115200)
        defer { source.stop() }
        // What 4800 baud looks like when read at 115200: bytes, never a sentence.
        receiver.send(String(repeating: "\u{7F}x\u{1}~", count: 700))
        #expect(await log.wait { $0.states.contains { $0.1.contains("is 115200 baud right?") } })
    }

    @Test func stopEndsTheStreamAndClosesTheDevice() async throws {
        let receiver = try NMEAFakeReceiver()
        let source = NMEADeviceSource(path: receiver.devicePath, baud: 9600)
        let log = NMEAEventLog(source.start())
        #expect(await log.wait { $0.count(.connected) == 1 })
        receiver.releaseTerminal()
        source.stop()
        #expect(await log.wait { $0.ended })
        // The device side is closed: the receiver's writes find no reader
        // (the pty reports the hang-up as POLLHUP on the controller).
        #expect(await waitUntil { receiver.hungUp })
        source.stop()  // a second stop is harmless
    }

    @Test func aConsumerThatGoesAwayStopsTheReader() async throws {
        let receiver = try NMEAFakeReceiver()
        let source = NMEADeviceSource(path: receiver.devicePath, baud: 9600)
        let stream = source.start()
        let consumer = Task { for await _ in stream {} }
        defer { source.stop() }
        // Wait until the source has the device open (the pty's termios turn raw).
        #expect(await waitUntil { csupport_tty_is_raw(receiver.controller) == 1 })
        receiver.releaseTerminal()
        consumer.cancel()
        // The reader notices and closes the device: the controller sees the hang-up.
        #expect(await waitUntil { receiver.hungUp })
    }

    @Test func aSecondStartGivesAFinishedStream() async throws {
        let scratch = try ScratchDirectory("nmea")
        let source = NMEADeviceSource(path: scratch.path + "/none", baud: 9600)
        _ = source.start()
        defer { source.stop() }
        var count = 0
        for await _ in source.start() { count += 1 }
        #expect(count == 0)
    }

    @Test func unsupportedBaudIsReportedAndRetried() async throws {
        let receiver = try NMEAFakeReceiver()
        let source = NMEADeviceSource(path: receiver.devicePath, baud: 12345)
        let log = NMEAEventLog(source.start())
        defer { source.stop() }
        #expect(await log.wait { $0.count(.connecting, containing: "12345 baud") >= 1 })
        #expect(log.count(.connected) == 0)
    }
}
