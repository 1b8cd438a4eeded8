import LocationValues

/// Turns a gpsd JSON log (`gpspipe -w`: one report a line) into one `Fix`
/// per receiver epoch, by the live gpsd source's own reading and assembly:
/// each TPV is read by the live source's decoder (`TPVReader`: the CGPS
/// shim's, which this module, pure Swift, cannot call, so the caller passes
/// it), every other line is a `GPSDLogLine`, and the TPVs of each receiver go
/// through its `GPSDEpochAssembler` (`GPSDReceiverAssemblers`), so a log and
/// gpsd live give the same fixes.
///
/// * A TPV's (and a SKY's) `device` names its receiver; one naming none
///   belongs to `device`, the log's own name (its path, as an NMEA
///   recording's fixes are named), or to no receiver when that is `nil`.
/// * A log has no arrival times, so it stands one in: the *log clock*, which
///   each receiver's TPVs move by their own forward steps of receiver time
///   (at most `maximumStep` a step, so one epoch dated a year ahead moves it
///   little; a step back moves it not at all), starting from where it stood
///   when that receiver first reported, and which reads the furthest any
///   receiver has taken it. So it runs at about one second a second however
///   far apart the receivers' clocks are. A receiver's epoch is delivered
///   when its next epoch begins, when it is complete by its learnt shape,
///   when the receiver reports no fix, when the log clock has gone
///   `quietInterval` past its last TPV (a receiver gone silent, while others
///   report on), when gpsd closes a receiver (DEVICE `"activated":0`) or
///   greets a new connection (VERSION) — where the live source flushes
///   too — and at the end of the log. The quiet interval is twice the live
///   one: the log clock moves in whole epochs, and a receiver's epoch must
///   not be cut short because another receiver's next second began while its
///   last TPV was still on the wire.
/// * Bad input is counted, never fatal: a line that is not a report, a member
///   of the wrong type, a TPV the live source would not read (the reader's
///   reason), a receiver past `maximumReceivers`, a line over
///   `maximumLineLength` bytes, a last line cut off; a TPV with absurd values
///   is read (a fix holding them is not usable) and counted. The first
///   `problemsListed` problems are kept with their line numbers for
///   `takeProblems()`, worded without the line's content (it may hold a
///   position).
///
/// * The TPVs handed to `readingTPV`: every line that begins as gpsd writes a
///   TPV (`{"class":"TPV"`), without a JSON parse first, and every other line
///   whose JSON object is of class TPV (which the live source's guard then
///   calls unreadable, as live).
///
/// Pure: bytes in any chunking, fixes out through `emit`.
public struct GPSDLogParser: Sendable {
    /// Reads one TPV line (without its line end) as the live source reads the same line from gpsd.
    public typealias TPVReader = (UnsafeRawBufferPointer) -> TPVReading

    /// What the live source makes of a TPV line.
    public enum TPVReading: Sendable, Hashable {
        /// The report, and the TPV's `"mode"` as the line gives it (0 when it has none; the report keeps 1…3 only).
        case report(GPSDFixReport, mode: Int)
        /// Not read: why, in words that quote nothing of the line.
        case unreadable(reason: String)
    }

    /// How a TPV begins as gpsd writes it: such a line goes to the reader without a JSON parse.
    private static let tpvOpening: [UInt8] = Array(#"{"class":"TPV""#.utf8)

    /// The longest line read; longer ones are unreadable.
    public static let maximumLineLength = 1 << 18
    /// How many problems are kept with their line numbers; the others are only counted.
    public static let problemsListed = 10
    /// How many class names are counted apart; the others are counted under `"(others)"`.
    public static let classesCounted = 32
    /// Log-clock seconds after a receiver's last TPV that deliver its epoch in progress.
    public static let quietInterval = 2.0
    /// The most one TPV moves the log clock, seconds.
    public static let maximumStep = 1.5
    /// How many receivers one log may name; reports of any further one are unreadable (a board has a
    /// handful, and gpsd serves a few: more is a garbled log, and each receiver costs the engine state).
    public static let maximumReceivers = 32

    /// One problem, at its line.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The line number, from 1.
        public var line: Int
        /// What was wrong.
        public var message: String
        /// `line N: message`.
        public var description: String { "line \(line): \(message)" }
    }

    /// The receiver a report naming none belongs to.
    public let device: String?
    /// Problems counted so far (listed or not).
    public private(set) var problemCount = 0
    private var assemblers: GPSDReceiverAssemblers
    private var counts = GPSDLogStatistics()
    private var partial: [UInt8] = []
    private var overLong = false
    private var problems: [Problem] = []
    private var scratch: [Fix] = []
    /// The log clock's reading (see the type's comment).
    private var clock = 0.0
    /// Per receiver: its latest TPV time, and how far it has taken the log clock.
    private var clocks: [String: (time: Double, reading: Double)] = [:]

    /// A parser for a log whose unnamed reports belong to `device`; epochs assembled with the daemon's
    /// tuning, but for `quietInterval`.
    public init(device: String?) {
        self.device = device
        self.assemblers = GPSDReceiverAssemblers(tuning: GPSDEpochAssembler.Tuning(quietInterval: Self.quietInterval))
    }

    /// What has been read so far.
    public var statistics: GPSDLogStatistics {
        var s = counts
        let assembled = assemblers.counters
        s.timeless = assembled.timeless
        s.late = assembled.late
        return s
    }

    /// The problems found since the last call (at most `problemsListed` in all).
    public mutating func takeProblems() -> [Problem] {
        defer { problems.removeAll() }
        return problems
    }

    /// Reads `bytes`, each TPV through `tpv`, and calls `emit` for every epoch completed by them.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, readingTPV tpv: TPVReader, _ emit: (Fix) -> Void) {
        var start = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                keep(UnsafeRawBufferPointer(rebasing: bytes[start...]))
                return
            }
            if partial.isEmpty && !overLong {
                take(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), tpv, emit)
            } else {
                keep(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                let line = partial
                partial.removeAll(keepingCapacity: true)
                line.withUnsafeBytes { take($0, tpv, emit) }
            }
            start = end + 1
        }
    }

    /// End of the log: a last line without a line end is read if it is a whole
    /// report (else counted as cut off), and every receiver's epoch in progress is delivered.
    public mutating func finish(readingTPV tpv: TPVReader, _ emit: (Fix) -> Void) {
        if !partial.isEmpty || overLong {
            let line = partial
            let cut = overLong
            partial.removeAll()
            overLong = false
            // Whole: one JSON object (a TPV cut short may still be one libgps would read in part).
            switch cut ? nil : line.withUnsafeBytes({ Self.decode($0, tpv, whole: true) }) {
            case nil, .line(.unreadable)?:
                counts.lines += 1
                counts.cutOff += 1
                problem("cut off at the end of the log (no line end): not read")
            case let whole?:
                handle(whole, emit)
            }
        }
        step(emit) { assemblers, out in assemblers.flush(out) }
    }

    /// Part of a line whose end has not come yet.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        guard !overLong else { return }
        if partial.count + bytes.count > Self.maximumLineLength {
            overLong = true
            partial.removeAll()
        } else {
            partial.append(contentsOf: bytes)
        }
    }

    /// One whole line.
    private mutating func take(_ line: UnsafeRawBufferPointer, _ tpv: TPVReader, _ emit: (Fix) -> Void) {
        if overLong || line.count > Self.maximumLineLength {
            overLong = false
            handle(.line(.unreadable(reason: "longer than \(Self.maximumLineLength) bytes")), emit)
        } else {
            handle(Self.decode(line, tpv, whole: false), emit)
        }
    }

    /// A line read: a TPV's report (and its first value out of range), or any other line.
    private enum Read {
        case tpv(GPSDFixReport, outOfRange: String?)
        case line(GPSDLogLine)
    }

    /// One line: a TPV as `tpv` reads it, every other line as `GPSDLogLine` does. `whole`: only a line that is one
    /// JSON object is read (a last line without its line end).
    private static func decode(_ line: UnsafeRawBufferPointer, _ tpv: TPVReader, whole: Bool) -> Read {
        if whole || !line.starts(with: tpvOpening) {
            let decoded = GPSDLogLine.decode(line)
            guard case .tpv = decoded else { return .line(decoded) }
        }
        switch tpv(line) {
        case .report(let report, let mode): return .tpv(report, outOfRange: outOfRange(report, mode: mode))
        case .unreadable(let reason): return .line(.unreadable(reason: reason))
        }
    }

    /// The first member out of its domain: a mode other than 0…3, a latitude beyond ±90°, a longitude beyond
    /// ±180°, a negative error estimate or speed, a course outside 0…360°.
    private static func outOfRange(_ r: GPSDFixReport, mode: Int) -> String? {
        if !(0...3).contains(mode) { return "mode" }
        if let v = r.latitude, !(-90...90).contains(v) { return "lat" }
        if let v = r.longitude, !(-180...180).contains(v) { return "lon" }
        for (name, value) in [("eph", r.eph), ("epv", r.epv), ("epx", r.epx), ("epy", r.epy), ("speed", r.speed)] {
            if let value, value < 0 { return name }
        }
        if let v = r.track, !(0...360).contains(v) { return "track" }
        return nil
    }

    private mutating func handle(_ decoded: Read, _ emit: (Fix) -> Void) {
        var line = decoded
        switch line {
        case .tpv(let report, _) where isNew(report.device):
            line = .line(.unreadable(reason: "TPV names a receiver past the \(Self.maximumReceivers) a log may have"))
        case .line(.sky(let named, _)) where isNew(named):
            line = .line(.unreadable(reason: "SKY names a receiver past the \(Self.maximumReceivers) a log may have"))
        default:
            break
        }
        counts.lines += 1
        switch line {
        case .tpv(var report, let outOfRange):
            counts.tpv += 1
            if let outOfRange {
                counts.outOfRange += 1
                problem("TPV \"\(outOfRange)\" is out of range (read; a fix with it is not usable)")
            }
            if report.device == nil { report.device = device }
            let now = tick(report)
            step(emit) { assemblers, out in
                assemblers.expire(at: now, out)
                assemblers.add(report, at: now, out)
            }
        case .line(.tpv):
            // A TPV the reader did not read is unreadable (`decode`): never here.
            counts.unreadable += 1
            problem("TPV not read")
        case .line(.sky(let named, let used)):
            counts.sky += 1
            assemblers.sky(device: named ?? device, satellitesUsed: used)
        case .line(.device(_, let activated)):
            count("DEVICE")
            // The live source delivers every receiver's epoch when gpsd closes one.
            if !activated { step(emit) { assemblers, out in assemblers.flush(out) } }
        case .line(.version):
            count("VERSION")
            // A new connection: the live source flushed when the last one ended.
            step(emit) { assemblers, out in assemblers.flush(out) }
        case .line(.other(let name)):
            count(name)
        case .line(.notJSON(.blank)):
            counts.blank += 1
        case .line(.notJSON(.nmea)):
            counts.nmea += 1
        case .line(.notJSON(.comment)):
            counts.comments += 1
        case .line(.unreadable(let reason)):
            counts.unreadable += 1
            problem(reason)
        }
    }

    /// Moves the log clock by `report`'s receiver's step and returns its reading.
    private mutating func tick(_ report: GPSDFixReport) -> Double {
        guard let time = report.time?.value else { return clock }
        let name = report.device ?? ""
        if let last = clocks[name] {
            let reading = last.reading + min(max(0, time - last.time), Self.maximumStep)
            clocks[name] = (time, reading)
            clock = max(clock, reading)
        } else {
            clocks[name] = (time, clock)
        }
        return clock
    }

    /// Whether `named` (or the log's own receiver) would be a receiver past `maximumReceivers`.
    private func isNew(_ named: String?) -> Bool {
        let receivers = assemblers.receivers
        return receivers.count >= Self.maximumReceivers && !receivers.contains(named ?? device ?? "")
    }

    private mutating func count(_ name: String) {
        let key = counts.classes[name] != nil || counts.classes.count < Self.classesCounted ? name : "(others)"
        counts.classes[key, default: 0] += 1
    }

    private mutating func problem(_ message: String) {
        problemCount += 1
        if problemCount <= Self.problemsListed { problems.append(Problem(line: counts.lines, message: message)) }
    }

    /// Runs an assembler step and counts and emits the fixes it completes. (Collected first: counting
    /// touches `self`, which the step is still mutating.)
    private mutating func step(
        _ emit: (Fix) -> Void, _ body: (inout GPSDReceiverAssemblers, (Fix) -> Void) -> Void
    ) {
        var done = scratch
        scratch = []
        done.removeAll(keepingCapacity: true)
        body(&assemblers) { done.append($0) }
        for fix in done {
            counts.epochs += 1
            let usable = fix.isUsable
            if usable { counts.usableFixes += 1 }
            let name = fix.device ?? ""
            if let i = counts.receivers.firstIndex(where: { $0.device == name }) {
                counts.receivers[i].epochs += 1
                if usable { counts.receivers[i].usableFixes += 1 }
            } else {
                counts.receivers.append(.init(device: name, epochs: 1, usableFixes: usable ? 1 : 0))
            }
            emit(fix)
        }
        scratch = done
    }
}
