import LocationValues

/// Turns gpsd's TPV reports into one `Fix` per receiver epoch.
///
/// gpsd 3.22 reports an NMEA epoch as it decodes it: typically one TPV after
/// GGA and another after RMC, both carrying the epoch's time, each more
/// complete than the last (the second adds course, and the receiver's own
/// speed over gpsd's estimate). gpxlogger keeps the *first* TPV of each time;
/// we keep the most complete one:
///
/// * TPVs with the same time are merged, newer values winning and values only
///   an earlier TPV knew kept. A change of mode inside an epoch starts the
///   epoch over (a 3D altitude must not survive into a 2D report).
/// * The epoch is delivered when a TPV with a different time arrives, when
///   gpsd has been silent for `quietInterval` after the epoch's last TPV,
///   when the receiver reports no fix without a time, or when the link ends.
/// * Once `steadyEpochs` consecutive epochs have had exactly the same shape
///   (TPV count, mode, and known values), an epoch is delivered as soon as it
///   reaches that shape, instead of a whole cycle later. A receiver whose
///   epochs vary (an RMC every fifth second, a GST now and then) never gets
///   there and keeps the rules above. A TPV that still arrives for the epoch
///   just delivered (before another one began) is dropped (counted as late), the shape is forgotten,
///   and twice as many steady epochs are needed before trusting it again.
/// * A TPV without a time is never a fix.
/// * After the link ends, TPVs for the last epoch delivered are dropped
///   (counted as late) until another time arrives: a gpsd that comes back
///   resends the last TPV it had, and reconnecting must not repeat that
///   epoch. Any other time is passed on, older ones included: a gpsd
///   restarted on an older recording, or a looping `gpsfake`, starts a new
///   time base in the engine and logging goes on (docs/authorization.md).
///
/// Satellites used come from gpsd's SKY reports, which arrive on their own
/// schedule: the latest count applies to epochs within `satelliteValidity`
/// seconds (receiver time) of the epoch it arrived in.
///
/// Pure, beside `NMEAEpochAssembler`: the caller (`GPSDReader`, on its
/// reader thread) supplies monotonic `now` and carries out the emits.
public struct GPSDEpochAssembler: Sendable {
    /// Timing and policy knobs.
    public struct Tuning: Sendable, Hashable {
        /// Silence after an epoch's last TPV that completes it, seconds.
        public var quietInterval: Double = 1.0
        /// How far (receiver seconds) a SKY's satellite count carries.
        public var satelliteValidity: Double = 5
        /// Deliver an epoch as soon as it has the learnt complete shape.
        public var earlyDelivery: Bool = true
        /// Consecutive identical epochs needed before delivering early.
        public var steadyEpochs: Int = 8

        /// Knobs from their parts; the defaults are the daemon's.
        public init(
            quietInterval: Double = 1.0, satelliteValidity: Double = 5, earlyDelivery: Bool = true, steadyEpochs: Int = 8
        ) {
            self.quietInterval = quietInterval
            self.satelliteValidity = satelliteValidity
            self.earlyDelivery = earlyDelivery
            self.steadyEpochs = steadyEpochs
        }
    }

    /// What the assembler has seen.
    public struct Counters: Sendable, Hashable {
        /// TPV reports received.
        public var reports = 0
        /// TPVs without a time (never delivered).
        public var timeless = 0
        /// TPVs for an epoch already delivered (dropped).
        public var late = 0
        /// Epochs delivered.
        public var epochs = 0
        /// Of those, delivered as soon as they were complete.
        public var early = 0
    }

    private struct Pending {
        var report: GPSDFixReport
        var time: GPSDFixReport.Time
        var count: Int
        var lastArrival: Double
    }

    private struct Shape: Equatable {
        var count: Int
        var fields: GPSDFixReport.Fields
        var mode: FixMode
    }

    /// The knobs in force.
    public let tuning: Tuning
    /// Running totals.
    public private(set) var counters = Counters()
    private var pending: Pending?
    private var lastDelivered: GPSDFixReport.Time?
    /// Set by `flush()`: until a TPV with another time arrives, TPVs with this one are late.
    private var resumeAfter: GPSDFixReport.Time?
    private var lastShape: Shape?
    private var steadyCount = 0
    private var steadyNeeded: Int
    private var learntShape: Shape?
    private var satellites: (used: Int, anchor: GPSDFixReport.Time?)?

    /// An assembler with nothing pending.
    public init(tuning: Tuning = Tuning()) {
        self.tuning = tuning
        self.steadyNeeded = max(1, tuning.steadyEpochs)
    }

    /// Monotonic time at which the pending epoch is delivered if nothing else
    /// arrives; `nil` when nothing is pending.
    public var deadline: Double? {
        // Read in place: mapping `pending` would copy the whole epoch (its report holds a String).
        guard let arrival = pending?.lastArrival else { return nil }
        return arrival + tuning.quietInterval
    }

    /// Takes one TPV that arrived at monotonic time `now`.
    public mutating func add(_ report: GPSDFixReport, at now: Double, _ emit: (Fix) -> Void) {
        counters.reports += 1
        guard let time = report.time else {
            counters.timeless += 1
            // The receiver has lost its fix; whatever epoch was in progress is
            // over, and it counts as a break in the steady shape.
            if report.mode == .noFix || report.mode == .unknown {
                deliverPending(learn: true, emit)
                forgetShape()
            }
            return
        }
        if let resume = resumeAfter {
            guard time != resume else {
                counters.late += 1
                return
            }
            resumeAfter = nil
        }
        // The pending epoch is changed and read in place (`pending!`), never copied out and back.
        if pending?.time == time {
            pending!.report = pending!.report.mode == report.mode ? pending!.report.merged(with: report) : report
            pending!.count += 1
            pending!.lastArrival = now
        } else if pending == nil, time == lastDelivered {
            counters.late += 1
            // Our idea of a complete epoch was wrong: learn it again, more carefully.
            if learntShape != nil { steadyNeeded = min(steadyNeeded * 2, 1024) }
            forgetShape()
            return
        } else {
            deliverPending(learn: true, emit)
            pending = Pending(report: report, time: time, count: 1, lastArrival: now)
        }

        if tuning.earlyDelivery, let shape = learntShape, pending!.report.mode == shape.mode,
            pending!.count >= shape.count, pending!.report.fields.isSuperset(of: shape.fields)
        {
            counters.early += 1
            deliverPending(learn: false, emit)
        }
    }

    /// Takes a SKY report's count of satellites used (`nil`: not reported).
    public mutating func sky(satellitesUsed: Int?) {
        guard let used = satellitesUsed else { return }
        satellites = (used, pending?.time ?? lastDelivered)
    }

    /// Delivers the pending epoch if gpsd has been quiet past `deadline`.
    public mutating func expire(at now: Double, _ emit: (Fix) -> Void) {
        if let deadline, now >= deadline {
            deliverPending(learn: true, emit)
        }
    }

    /// The link ended: delivers what is pending and forgets what was learnt
    /// about this gpsd (a new one may report differently). The last delivered
    /// time is kept: until another time arrives, that epoch resent after a
    /// reconnect is not delivered again.
    public mutating func flush(_ emit: (Fix) -> Void) {
        deliverPending(learn: false, emit)
        resumeAfter = lastDelivered
        forgetShape()
        steadyNeeded = max(1, tuning.steadyEpochs)
        satellites = nil
    }

    private mutating func forgetShape() {
        learntShape = nil
        lastShape = nil
        steadyCount = 0
    }

    private mutating func deliverPending(learn: Bool, _ emit: (Fix) -> Void) {
        guard let done = pending.take() else { return }
        lastDelivered = done.time
        if learn {
            let shape = Shape(count: done.count, fields: done.report.fields, mode: done.report.mode)
            steadyCount = shape == lastShape ? steadyCount + 1 : 1
            lastShape = shape
            learntShape = steadyCount >= steadyNeeded ? shape : nil
        }
        counters.epochs += 1
        emit(done.report.fix(satellitesUsed: satellitesUsed(at: done.time)))
    }

    private mutating func satellitesUsed(at time: GPSDFixReport.Time) -> Int? {
        guard let current = satellites else { return nil }
        // A SKY that came before any TPV belongs to the first epoch.
        let anchor = current.anchor ?? time
        if current.anchor == nil { satellites = (current.used, time) }
        return abs(time.value - anchor.value) <= tuning.satelliteValidity ? current.used : nil
    }
}
