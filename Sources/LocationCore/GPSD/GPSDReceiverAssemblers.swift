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
    private var assemblers: [GPSDEpochAssembler] = []
    private var devices: [String] = []

    /// No receiver seen yet.
    public init(tuning: GPSDEpochAssembler.Tuning = .init()) {
        self.tuning = tuning
    }

    /// The receivers seen since the start, in order of their first report ("" for the unnamed one).
    public var receivers: [String] { devices }

    /// The totals of every receiver's counters.
    public var counters: GPSDEpochAssembler.Counters {
        var total = GPSDEpochAssembler.Counters()
        for a in assemblers {
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
        devices.firstIndex(of: device).map { assemblers[$0].counters }
    }

    /// The earliest deadline of any receiver's pending epoch.
    public var deadline: Double? {
        assemblers.compactMap(\.deadline).min()
    }

    /// Takes one TPV at monotonic `now`; the fixes it completes carry their receiver's path.
    public mutating func add(_ report: GPSDFixReport, at now: Double, _ emit: (Fix) -> Void) {
        let i = slot(report.device ?? "")
        assemblers[i].add(report, at: now, emit)
    }

    /// Takes a SKY's count of satellites used for `device`.
    public mutating func sky(device: String?, satellitesUsed: Int?) {
        let i = slot(device ?? "")
        assemblers[i].sky(satellitesUsed: satellitesUsed)
    }

    /// Delivers every receiver's epoch whose quiet interval is over.
    public mutating func expire(at now: Double, _ emit: (Fix) -> Void) {
        for i in assemblers.indices { assemblers[i].expire(at: now, emit) }
    }

    /// The link ended: every receiver's pending epoch is delivered and what was learnt forgotten.
    public mutating func flush(_ emit: (Fix) -> Void) {
        for i in assemblers.indices { assemblers[i].flush(emit) }
    }

    private mutating func slot(_ device: String) -> Int {
        if let i = devices.firstIndex(of: device) { return i }
        // gpsd hotplugs receivers; a board has a handful, so a linear search beats a dictionary here.
        devices.append(device)
        assemblers.append(GPSDEpochAssembler(tuning: tuning))
        return assemblers.count - 1
    }
}
