import LocationValues

/// One `GPSDEpochAssembler` per receiver gpsd reports (TPV and SKY `device`):
/// each receiver's epochs are assembled, timed and counted apart, so two
/// receivers reporting the same second never merge into one epoch, and one
/// receiver's TPVs never end the other's epoch or count as late against it.
/// A report without a `device` belongs to the receiver named "" (an old gpsd,
/// a test); its fixes carry `device == nil`.
///
/// Pure, like the assembler: the caller supplies monotonic `now`.
public struct GPSDReceiverAssemblers: Sendable {
    /// The knobs every receiver's assembler gets.
    public let tuning: GPSDEpochAssembler.Tuning
    /// The assemblers by device path, in the order the receivers first reported.
    private var assemblers = ReceiverTable<GPSDEpochAssembler>()

    /// No receiver seen yet.
    public init(tuning: GPSDEpochAssembler.Tuning = .init()) {
        self.tuning = tuning
    }

    /// The receivers seen since the start, in order of their first report ("" for the unnamed one).
    public var receivers: [String] { assemblers.names }

    /// The totals of every receiver's counters.
    public var counters: GPSDEpochAssembler.Counters {
        var total = GPSDEpochAssembler.Counters()
        for a in assemblers.values {
            total.reports += a.counters.reports
            total.timeless += a.counters.timeless
            total.late += a.counters.late
            total.epochs += a.counters.epochs
            total.early += a.counters.early
        }
        return total
    }

    /// One receiver's counters; `nil` for a receiver never seen.
    public func counters(of device: String) -> GPSDEpochAssembler.Counters? {
        assemblers[device]?.counters
    }

    /// The earliest deadline of any receiver's pending epoch.
    public var deadline: Double? {
        // A loop, not compactMap and min: no array made, no generic code, at every pass of the reader.
        var earliest: Double?
        for i in assemblers.values.indices {
            guard let due = assemblers.values[i].deadline else { continue }
            if earliest.map({ due < $0 }) ?? true { earliest = due }
        }
        return earliest
    }

    /// Takes one TPV at monotonic `now`; the fixes it completes carry their receiver's path.
    public mutating func add(_ report: GPSDFixReport, at now: Double, _ emit: (Fix) -> Void) {
        let i = slot(report.device ?? "")
        assemblers.values[i].add(report, at: now, emit)
    }

    /// Takes a SKY's count of satellites used for `device`.
    public mutating func sky(device: String?, satellitesUsed: Int?) {
        let i = slot(device ?? "")
        assemblers.values[i].sky(satellitesUsed: satellitesUsed)
    }

    /// Delivers every receiver's epoch whose quiet interval is over.
    public mutating func expire(at now: Double, _ emit: (Fix) -> Void) {
        for i in assemblers.values.indices { assemblers.values[i].expire(at: now, emit) }
    }

    /// The link ended: every receiver's pending epoch is delivered and what was learnt forgotten.
    public mutating func flush(_ emit: (Fix) -> Void) {
        for i in assemblers.values.indices { assemblers.values[i].flush(emit) }
    }

    private mutating func slot(_ device: String) -> Int {
        let tuning = tuning
        return assemblers.slot(of: device, adding: GPSDEpochAssembler(tuning: tuning))
    }
}
