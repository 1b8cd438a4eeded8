import LocationCodecs
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem

/// The body of a `GPSDSource`'s reader thread: connect, watch, read, turn
/// TPVs into epochs, and on any failure report it and reconnect with backoff.
/// Everything here runs on that one thread; only `control` is shared.
struct GPSDReader {
    private enum SessionEnd {
        /// A stop was requested.
        case stopped
        /// The session ended; `watching` says whether gpsd had confirmed our
        /// watch, `duration` how long the connection lasted.
        case ended(GPSDError, watching: Bool, duration: Double)
    }

    private let control: GPSDReaderControl
    private let host: String
    private let port: Int
    private let endpoint: String
    private let tuning: GPSDTuning
    private var backoff: ReconnectBackoff
    private var assembler: GPSDReceiverAssemblers
    /// Each receiver's last satellite list, for the DOPs-only SKYs between them.
    private var skies = GPSDSkyViews()
    private var reporter = SourceStateReporter()
    private var statistics = GPSDSourceStatistics()
    private var published: GPSDSourceStatistics?
    private var scratch: [Fix] = []
    private var outage: SourceOutageTracker?
    private var everConnected = false
    /// Whether an event went to the sink since the last pause (`pause`), and the time the
    /// sink asked to be called again by then (nil: none).
    private var handedOver = false
    private var pauseDue: Double?
    /// The receivers gpsd lists in this session (its `DEVICES`, then each `DEVICE` it opens or
    /// closes), those whose raw connections were last asked for, whether the sink wanted raw bytes
    /// at the last pass, and whether to ask gpsd for its receivers again (`syncRawLinks`).
    private var receivers: Set<String> = []
    private var rawWanted: Set<String> = []
    private var rawOn = false
    private var askDevices = false

    /// A reader for gpsd at `host:port`, reporting through `control`.
    init(control: GPSDReaderControl, host: String, port: Int, tuning: GPSDTuning) {
        self.control = control
        self.host = host
        self.port = port
        self.endpoint = GPSDSession.endpoint(host: host, port: port)
        self.tuning = tuning
        self.backoff = ReconnectBackoff(policy: tuning.backoff)
        self.assembler = GPSDReceiverAssemblers(tuning: tuning.epochs)
    }

    /// Runs until a stop is requested, then finishes the sink.
    mutating func run() {
        outage = SourceOutageTracker(since: SystemClock.monotonic())
        Diagnostics.gpsd.notice("connecting to \(endpoint)")
        report(.connecting, "connecting to gpsd at \(endpoint)")
        while !control.isStopping {
            statistics.connectionAttempts += 1
            outage?.attempts += 1
            publish()
            let end: SessionEnd
            do {
                var session = try GPSDSession(host: host, port: port, control: control)
                // connect(2) may have blocked past a stop (an unreachable host).
                end = control.isStopping ? .stopped : serve(&session)
            } catch {
                end = .ended(error, watching: false, duration: 0)
            }
            // gpsd went away (or a stop): its raw connections go with it, and come back with it.
            receivers = []
            askDevices = false
            syncRawLinks(watching: false)
            guard case .ended(let error, let watching, let duration) = end else { break }
            if watching {
                lost(error, after: duration)
            } else {
                failed(error)
            }
            if control.isStopping { break }
            let delay = backoff.nextDelay()
            outage?.waited(delay)
            // Status shows the outage with its numbers while it lasts.
            if let outage { yield(.outage(outage.report(at: SystemClock.monotonic()))) }
            if control.wakeup.wait(seconds: delay) { break }
        }
        publish()
        control.raw.finish(grace: tuning.stopGrace)
        control.readerFinished()
    }

    /// Reads one session until it ends or a stop is requested.
    private mutating func serve(_ session: inout GPSDSession) -> SessionEnd {
        let openedAt = SystemClock.monotonic()
        let handshakeDeadline = openedAt + tuning.handshakeTimeout
        var watching = false
        var release: String?
        var deviceCount: Int?
        var lastInput = openedAt
        var probeSentAt: Double?
        // A stop shuts the socket down, which reads as gpsd closing it: while stopping, any end is the stop.
        func ended(_ error: GPSDError) -> SessionEnd {
            if control.isStopping { return .stopped }
            return .ended(error, watching: watching, duration: SystemClock.monotonic() - openedAt)
        }

        while true {
            var heard = false
            do {
                while let incoming = try session.read() {
                    heard = true
                    statistics.reports += 1
                    switch incoming {
                    case .tpv(let tpv):
                        take(tpv, watching: watching)
                    case .sky(var view, let device):
                        assembler.sky(device: device, satellitesUsed: view.satellitesUsed)
                        view.device = device
                        if !view.isEmpty { yield(.sky(skies.take(view))) }
                    case .version(let text):
                        release = text
                    case .devices(let count, let paths):
                        deviceCount = count
                        receivers = Set(paths)
                        if watching && count == 0 {
                            report(.connected, "connected to gpsd at \(endpoint); gpsd has no receiver")
                        }
                    case .watch:
                        if !watching {
                            watching = true
                            connected(release: release, deviceCount: deviceCount)
                        }
                    case .device(let path, let activated):
                        if activated {
                            receivers.insert(path)
                        } else {
                            // Closed, or removed: gpsd says the same of both. While raw connections
                            // run, its list tells them apart (a closed one stays listed, and gpsd
                            // opens it again without a word); else it is out until gpsd lists it.
                            if rawOn { askDevices = true } else { receivers.remove(path) }
                            if watching { receiverClosed(path) }
                        }
                    case .error(let message):
                        Diagnostics.gpsd.warning("gpsd at \(endpoint) reported an error: \(message)")
                    case .unreadable:
                        statistics.unreadableReports += 1
                        unreadable(statistics.unreadableReports)
                    case .other:
                        break
                    }
                    if control.isStopping { return .stopped }
                }
            } catch {
                return ended(error)
            }
            if control.isStopping { return .stopped }
            syncRawLinks(watching: watching)
            if askDevices {
                askDevices = false
                do {
                    try session.askDevices()
                } catch {
                    return ended(error)
                }
            }

            let now = SystemClock.monotonic()
            if heard {
                lastInput = now
                probeSentAt = nil
            }
            // An epoch is expired only when one is due: with early delivery none is
            // pending between a receiver's epochs, and the pass costs one look.
            var deadline = assembler.deadline
            if let due = deadline, now >= due {
                deliver { assembler, emit in assembler.expire(at: now, emit) }
                deadline = assembler.deadline
            }
            publish()

            if !watching {
                if now >= handshakeDeadline {
                    return ended(GPSDError(code: .noAnswer(seconds: tuning.handshakeTimeout), endpoint: endpoint))
                }
                deadline = min(deadline ?? handshakeDeadline, handshakeDeadline)
            } else if let sent = probeSentAt {
                // Silence, and not even an answer to the probe: this gpsd is gone.
                if now - sent >= tuning.probeTimeout {
                    let silent = now - lastInput
                    return ended(GPSDError(code: .unresponsive(seconds: silent), endpoint: endpoint))
                }
                deadline = min(deadline ?? sent + tuning.probeTimeout, sent + tuning.probeTimeout)
            } else if now - lastInput >= tuning.probeAfter {
                // gpsd has said nothing for a while. Renewing the watch asks it to
                // answer, and revives a connection gpsd stopped serving when it
                // restarted itself on SIGHUP.
                do {
                    try session.watch()
                } catch {
                    return ended(error)
                }
                probeSentAt = now
                if reporter.state == .fix || reporter.state == .noFix {
                    report(
                        .connected,
                        "connected to gpsd at \(endpoint); no report from the receiver for \(seconds(tuning.probeAfter)) s")
                }
                deadline = min(deadline ?? now + tuning.probeTimeout, now + tuning.probeTimeout)
            } else {
                let probe = lastInput + tuning.probeAfter
                deadline = min(deadline ?? probe, probe)
            }
            if let due = pause(now: now) { deadline = min(deadline ?? due, due) }
            do {
                try session.wait(until: deadline, now: now)
            } catch {
                return ended(error)
            }
        }
    }

    /// Asks for a raw connection to each receiver gpsd lists while gpsd has confirmed the watch
    /// and the sink wants raw bytes (a client has a `raw_log`), and for none otherwise
    /// (docs/sources.md, "Raw capture from gpsd"). Once a pass of the read loop: without a
    /// `raw_log`, one atomic load and nothing else.
    private mutating func syncRawLinks(watching: Bool) {
        let wanted = watching && control.wantsRawBytes
        guard wanted || rawOn else { return }
        // Starting: gpsd's list as it is now, not as it was when the reader last heard it.
        if wanted && !rawOn { askDevices = true }
        rawOn = wanted
        let devices = wanted ? receivers : []
        guard devices != rawWanted else { return }
        rawWanted = devices
        control.raw.want(devices, control: control)
    }

    /// Says so at the 1st, 10th, 100th … unreadable line: never the line
    /// itself, which may hold a position.
    private func unreadable(_ count: Int) {
        var power = 1
        while power < count { power *= 10 }
        guard power == count else { return }
        Diagnostics.gpsd.warning(
            "gpsd at \(endpoint) sent \(count) line\(count == 1 ? "" : "s") naming \"class\" twice or not at the start; "
                + "not read (libgps would never return from them); reading goes on")
    }

    private mutating func take(_ tpv: GPSDFixReport, watching: Bool) {
        let now = SystemClock.monotonic()
        deliver { assembler, emit in assembler.add(tpv, at: now, emit) }
        // Mode 0 only means gpsd has heard nothing yet; mode 1 is the receiver saying "no fix".
        if tpv.time == nil && tpv.mode == .noFix && watching {
            report(.noFix, "receiver reports no fix")
        }
    }

    /// Runs an assembler step and delivers the epochs it completes. (The
    /// epochs are collected first: delivering touches `self`, which the
    /// assembler step is still mutating. The collection's storage is kept
    /// from one call to the next.)
    private mutating func deliver(_ step: (inout GPSDReceiverAssemblers, (Fix) -> Void) -> Void) {
        var completed = scratch
        scratch = []
        completed.removeAll(keepingCapacity: true)
        step(&assembler) { completed.append($0) }
        for fix in completed {
            if fix.mode == .twoD || fix.mode == .threeD {
                report(.fix, "receiver reports a fix")
            } else {
                report(.noFix, "receiver reports no fix")
            }
            yield(.fix(fix))
        }
        scratch = completed
    }

    private mutating func connected(release: String?, deviceCount: Int?) {
        statistics.connections += 1
        let gpsd = release.map { "gpsd \($0)" } ?? "gpsd"
        let now = SystemClock.monotonic()
        if everConnected, let outage {
            let seconds = ((now - outage.since) * 10).rounded() / 10
            Diagnostics.gpsd.notice(
                "reconnected to \(gpsd) at \(endpoint) after \(outage.attempts) attempt(s) in \(seconds) s; \(outage.waitsText)")
        } else if let outage, outage.attempts > 1 {
            Diagnostics.gpsd.notice(
                "connected to \(gpsd) at \(endpoint) after \(outage.attempts) attempts; \(outage.waitsText)")
        } else {
            Diagnostics.gpsd.notice("connected to \(gpsd) at \(endpoint)")
        }
        everConnected = true
        if outage?.waitCount ?? 0 > 0 { yield(.outage(nil)) }
        outage = nil
        var detail = "connected to \(gpsd) at \(endpoint)"
        if deviceCount == 0 { detail += "; gpsd has no receiver yet" }
        report(.connected, detail)
    }

    private mutating func receiverClosed(_ path: String) {
        deliver { assembler, emit in assembler.flush(emit) }
        Diagnostics.gpsd.notice("gpsd at \(endpoint) closed receiver \(path)")
        report(.connected, "connected to gpsd at \(endpoint); gpsd closed receiver \(path)")
    }

    /// A session that had a confirmed watch ended.
    private mutating func lost(_ error: GPSDError, after duration: Double) {
        deliver { assembler, emit in assembler.flush(emit) }
        backoff.sessionEnded(after: duration)
        outage = SourceOutageTracker(since: SystemClock.monotonic(), attempts: 0, reason: error.reason)
        // How long the session lasted decides where the backoff starts again (`ReconnectBackoff.stableAfter`).
        let healthy = duration >= tuning.backoff.stableAfter
        Diagnostics.gpsd.warning(
            "lost the connection after \(SourceOutageTracker.seconds((duration * 10).rounded() / 10)) s: \(error); reconnecting"
                + (healthy ? " (the backoff starts over)" : ""))
        report(.connecting, "\(error); reconnecting")
    }

    /// An attempt failed before gpsd confirmed the watch.
    private mutating func failed(_ error: GPSDError) {
        var current = outage ?? SourceOutageTracker(since: SystemClock.monotonic())
        if current.reason == nil {
            Diagnostics.gpsd.warning(
                "\(error); retrying, with backoff up to \(seconds(tuning.backoff.cap)) s between attempts")
        } else if current.reason != error.reason {
            Diagnostics.gpsd.info("\(error); still retrying")
        } else {
            Diagnostics.gpsd.debug("attempt \(current.attempts) failed: \(error)")
        }
        current.reason = error.reason
        outage = current
        report(.connecting, "\(error); retrying")
    }

    /// Hands one event to the sink.
    private mutating func yield(_ event: SourceEvent) {
        handedOver = true
        control.yield(event)
    }

    /// Before each wait: the sink's pause (`SourceSink.idle`: the lines batched since written,
    /// a sync come due made, the core's tick set), when this reader handed it something since
    /// the last or the time that pause asked for has come; else that time still holds. gpsd
    /// sends a TPV and a GST an epoch, in two wake-ups, and the second hands nothing over: its
    /// pause would find nothing to write and nothing due (docs/performance.md, "Half the
    /// pauses").
    private mutating func pause(now: Double) -> Double? {
        if handedOver || pauseDue.map({ now >= $0 }) == true {
            handedOver = false
            pauseDue = control.idle()
        }
        return pauseDue
    }

    private mutating func report(_ state: SourceState, _ detail: String) {
        if let event = reporter.report(state, detail) {
            yield(event)
        }
    }

    private mutating func publish() {
        let counters = assembler.counters
        statistics.tpvReports = counters.reports
        statistics.timelessReports = counters.timeless
        statistics.lateReports = counters.late
        statistics.epochs = counters.epochs
        statistics.earlyEpochs = counters.early
        // Once per pass of the read loop: skip the lock when nothing changed.
        guard statistics != published else { return }
        published = statistics
        control.publish(statistics)
    }

    private func seconds(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value))" : "\(value)"
    }
}
