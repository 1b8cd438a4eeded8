#if canImport(Glibc)
import Glibc
#endif
import LocationCodecs
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem

/// The reading loop of an `NMEADeviceSource`, run on its own thread: opens the
/// path, reads it, feeds the parser, reports link state and fixes, and opens
/// it again when it goes away. Never throws out; only a stop ends it.
final class NMEAReader {
    /// Timings (seconds).
    struct Timing: Sendable {
        /// Quiet time after which the epoch in progress is emitted.
        var silence = 0.2
        /// First wait before opening again; doubles up to `retryCap`.
        var firstRetry = 0.25
        var retryCap = 5.0
        /// How often a plain file at its end is checked for growth.
        var follow = 0.25
    }

    private let path: String
    private let baud: Int
    private let sink: any SourceSink
    private let control: NMEAReaderControl
    private let timing: Timing
    /// Its fixes name the device path (docs/sources.md, "Several receivers").
    private var parser: NMEAParser
    private var reported = SourceStateReporter()
    private var consumerGone = false
    /// The device's outage while it cannot be opened or after it went away (`status`, as gpsd's).
    private var outage: SourceOutageTracker?
    /// Attempts to open the path and the ones that worked, for `status` (with the parser's counts).
    private var attempts = 0
    private var opens = 0
    /// The counts last published to `control`, to skip the lock when nothing changed.
    private var published = SourceCounts()
    /// Read buffer, allocated once.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)

    init(path: String, baud: Int, sink: any SourceSink, control: NMEAReaderControl, timing: Timing = Timing()) {
        self.path = path
        self.baud = baud
        self.sink = sink
        self.control = control
        self.timing = timing
        parser = NMEAParser(device: path)
    }

    deinit { buffer.deallocate() }

    /// Stop requested, or nobody takes the events any more.
    private var stopping: Bool { consumerGone || control.isStopping }

    /// Why reading one opened input ended.
    private enum End {
        case stopped
        /// The device went away (unplugged, hung up, read error).
        case gone(String)
        /// The FIFO's writer closed it.
        case writerClosed
        /// The file was replaced (rotated) or removed.
        case replaced
    }

    /// Runs until stopped.
    func run() {
        var retry = timing.firstRetry
        reading: while !stopping {
            let end: End
            switch openAndRead() {
            case .failure(let error):
                report(.connecting, "cannot open \(error); retrying in \(Self.seconds(retry))")
                var current = outage ?? SourceOutageTracker(since: SystemClock.monotonic())
                current.attempts += 1
                outage = current
                guard wait(retry) else { break reading }
                retry = min(retry * 2, timing.retryCap)
                continue
            case .success(let outcome):
                end = outcome.end
                if outcome.gotData { retry = timing.firstRetry }
            }
            // The input is closed by now: a device that went away is not held open while waiting.
            parser.finish { self.deliver($0) }
            publish()
            switch end {
            case .stopped:
                break reading
            case .gone(let reason):
                // Unplugged, or the device failed: a person should know (as gpsd's "lost the connection").
                Diagnostics.nmea.warning("lost \(path): \(reason); opening it again")
                report(.connecting, "\(path): \(reason); opening it again in \(Self.seconds(retry))")
                outage = SourceOutageTracker(since: SystemClock.monotonic(), reason: reason)
                guard wait(retry) else { break reading }
                retry = min(retry * 2, timing.retryCap)
            case .writerClosed:
                report(.connecting, "the writer closed FIFO \(path); waiting for the next one")
            case .replaced:
                report(.connecting, "\(path) was replaced or removed; opening it again")
                guard pause(timing.firstRetry) else { break reading }
            }
        }
        sink.finish()
    }

    /// Opens the path, reports it, and reads it until it ends; the input is
    /// closed on return.
    private func openAndRead() -> Result<(end: End, gotData: Bool), SystemError> {
        let input: NMEAInput
        attempts += 1
        do {
            input = try NMEAInput(path: path, baud: baud)
        } catch {
            publish()
            return .failure(error)
        }
        opens += 1
        publish()
        reopened()
        switch input.kind {
        case .terminal: report(.connected, "\(path) open at \(baud) baud")
        case .device: report(.connected, "\(path) open")
        case .file: report(.connected, "reading \(path)")
        case .fifo: report(.connecting, "waiting for a writer on FIFO \(path)")
        }
        var gotData = false
        let end = pump(input, gotData: &gotData)
        return .success((end, gotData))
    }

    // MARK: - Reading

    private func pump(_ input: borrowing NMEAInput, gotData: inout Bool) -> End {
        var lastData = SystemClock.monotonic()
        var pending = false  // bytes fed since the last flush
        var atEnd = false
        var bytes = 0
        var warnedNoSentences = false
        let sentencesAtOpen = parser.statistics.sentences

        func consume(_ count: Int) {
            if sink.wantsRawBytes {
                // The bytes as read, before the parser sees them: a raw capture's, in order.
                send(.raw(device: path, bytes: Array(UnsafeRawBufferPointer(rebasing: buffer[0..<count])), time: SystemClock.utc()))
            }
            let undatedBefore = parser.statistics.undatedEpochs
            parser.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { self.deliver($0) }
            sendSky()
            publish()
            let statistics = parser.statistics
            if statistics.undatedEpochs > undatedBefore && reported.state != .fix {
                report(.noFix, "the receiver sends no time and date yet: no fix")
            }
            bytes += count
            if !warnedNoSentences && bytes >= 2048 && statistics.sentences == sentencesAtOpen {
                warnedNoSentences = true
                report(reported.state ?? .connected, "\(path): \(bytes) bytes but no NMEA sentence; is \(baud) baud right?")
            }
            lastData = SystemClock.monotonic()
            // Only an epoch still open needs the silence timer: once the parser knows the
            // receiver's cycle it emits each epoch at its last sentence, and the reader then
            // sleeps until the next bytes (no wake-up while nothing is due; #37).
            pending = parser.hasEpochInProgress
            gotData = true
        }

        while !stopping {
            if input.kind == .file {
                let n: Int?
                do {
                    n = try input.read(into: buffer)
                } catch {
                    return .gone(error.description)
                }
                if let n, n > 0 {
                    if atEnd { report(.connected, "reading \(path)") }
                    atEnd = false
                    consume(n)
                    continue
                }
                if !atEnd {
                    atEnd = true
                    flushIfPending(&pending)
                    report(.endOfFile, "at end of file \(path), following it")
                }
                // The follow pause is short: a line's sync deadline (`idle`'s answer) is met by the next.
                _ = sink.idle()
                guard pause(timing.follow) else { return .stopped }
                let state = input.fileState(path: path)
                if state.replaced { return .replaced }
                if state.size < input.offset {
                    // Truncated: start again from the top, as `tail -F` does.
                    parser.finish { self.deliver($0) }
                    publish()
                    input.rewind()
                }
                continue
            }

            // Pending: until the silence ends the epoch; a line written and not yet synced: until
            // its sync is due (`SourceSink.idle`). Otherwise until input or a stop (the wake-up
            // descriptor); a device that goes away reports POLLHUP or POLLERR.
            let due = sink.idle()
            let now = SystemClock.monotonic()
            var timeout = pending ? max(0, timing.silence - (now - lastData)) : -1
            if let due { timeout = max(0, timeout < 0 ? due - now : min(timeout, due - now)) }
            var fds = [
                pollfd(fd: input.fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: control.wakeup.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, timeout < 0 ? -1 : Int32((timeout * 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                return .gone(SystemError("poll", errno: errno).description)
            }
            if stopping { return .stopped }
            let events = Int32(fds[0].revents)
            if events & Int32(POLLIN) != 0 {
                let n: Int?
                do {
                    n = try input.read(into: buffer)
                } catch {
                    return input.kind == .fifo ? .writerClosed : .gone(Self.reason(error))
                }
                guard let n else { continue }
                if n == 0 {
                    return input.kind == .fifo ? .writerClosed : .gone("the device hung up")
                }
                if input.kind == .fifo && reported.state == .connecting {
                    report(.connected, "a writer is sending on FIFO \(path)")
                }
                consume(n)
            } else if events & Int32(POLLHUP | POLLERR | POLLNVAL) != 0 {
                return input.kind == .fifo ? .writerClosed : .gone("the device hung up")
            } else if ready == 0 && pending && SystemClock.monotonic() - lastData >= timing.silence {
                flushIfPending(&pending)
            }
        }
        return .stopped
    }

    private func flushIfPending(_ pending: inout Bool) {
        guard pending else { return }
        pending = false
        parser.flush { self.deliver($0) }
        sendSky()
        publish()
    }

    // MARK: - Reporting

    private func deliver(_ fix: Fix) {
        if fix.isUsable {
            if reported.state != .fix { report(.fix, "the receiver reports a \(fix.mode) fix") }
        } else if reported.state != .noFix {
            report(.noFix, "the receiver reports no fix")
        }
        send(.fix(fix))
    }

    /// Hands on the parser's sky view (GSA's DOPs and used, GSV's satellites) when it changed,
    /// named by the device path as the fixes are.
    private func sendSky() {
        if let sky = parser.takeChangedSky() { send(.sky(sky)) }
    }

    /// Publishes the counts for `status` when they changed (once per read, not per fix).
    private func publish() {
        let s = parser.statistics
        let counts = SourceCounts(
            attempts: attempts, connections: opens, lines: s.sentences, unreadable: s.badChecksums + s.malformed,
            fixes: s.epochs, timeless: s.undatedEpochs, late: s.lateSentences)
        guard counts != published else { return }
        published = counts
        control.publish(counts)
    }

    private func report(_ state: SourceState, _ detail: String) {
        if let event = reported.report(state, detail) { send(event) }
    }

    private func send(_ event: SourceEvent) {
        guard !consumerGone else { return }
        if !sink.take(event) { consumerGone = true }
    }

    /// Waits `seconds` before the next attempt to open, unless stopped first (false); `status`
    /// shows the outage with its numbers meanwhile.
    private func wait(_ seconds: Double) -> Bool {
        if var current = outage {
            current.waited(seconds)
            outage = current
            send(.outage(current.report(at: SystemClock.monotonic())))
        }
        return pause(seconds)
    }

    /// The path opened again after an outage: said once, with its numbers, and status has none any more.
    private func reopened() {
        guard let current = outage else { return }
        outage = nil
        let seconds = SourceOutageTracker.seconds(((SystemClock.monotonic() - current.since) * 10).rounded() / 10)
        Diagnostics.nmea.notice(
            "opened \(path) again after \(current.attempts + 1) attempt(s) in \(seconds) s; \(current.waitsText)")
        send(.outage(nil))
    }

    /// Waits `seconds` unless stopped first; false if stopped.
    private func pause(_ seconds: Double) -> Bool {
        guard !stopping else { return false }
        _ = control.wakeup.wait(seconds: seconds)
        return !stopping
    }

    /// `250 ms`, `2 s`, `2.5 s`.
    private static func seconds(_ value: Double) -> String {
        if value < 1 { return "\(Int((value * 1000).rounded())) ms" }
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }

    private static func reason(_ error: SystemError) -> String {
        switch error.errno {
        case EIO, ENXIO, ENODEV: "the device is gone (\(error))"
        default: error.description
        }
    }
}
