import LocationCore
import LocationProtocol

/// The delivery half of `EffectCarrier`, in one value so a fix delivered to
/// many clients costs little per client: each client's count, where its log
/// is, and the line shared by clients of one fix at one accuracy.
struct LogFanout {
    /// A client deliveries have gone to.
    struct Recipient {
        var name: String
        /// Its place in the logs (nil: none), as of `logsGeneration`.
        var logSlot: Int?
        var delivered = 0
    }

    /// Everyone delivered to so far; `byName` finds one.
    private(set) var recipients: [Recipient] = []
    private var byName: [String: Int] = [:]
    /// The `names` of the list carried last, and each one's place in `recipients`.
    private var names: [String] = []
    private var recipientOfName: [Int] = []
    private var logsGeneration: Int
    /// What `prefix` was formatted from in the list being carried: its place in the list's
    /// `fixes` and the accuracy (nil: nothing yet in this list). A place, not a copy of the
    /// `Fix` to compare with: copying and comparing fixes was 650 instructions a fix.
    private var formatted: (fix: Int, accuracy: DeliveredAccuracy, loggable: Bool)?
    /// The own time of the fix `prefix` was formatted from: a split log's file is chosen by it.
    private var formattedTime: Double?
    private var prefix: [UInt8] = []
    /// Log slots whose next line is `prefix` and the client's ending, not yet handed to the logs.
    private var waiting: [Int] = []

    init(logsGeneration: Int) {
        self.logsGeneration = logsGeneration
        prefix.reserveCapacity(256)
    }

    /// The deliveries that follow are of another list than those before: the line formatted for
    /// a place in the last one's `fixes` is not one of its.
    mutating func startList() {
        formatted = nil
    }

    /// Counts the deliveries of `run` and queues their lines; returns the
    /// clients of those whose fix cannot be a log record (nil: none). The runs of one
    /// list follow one another without `startList()` between them.
    mutating func deliver(_ run: ArraySlice<EffectList.Item>, of list: EffectList, logs: ClientLogs) -> (
        count: Int, first: String
    )? {
        refresh(list.names, logs: logs)
        var unloggable: (count: Int, first: String)?
        var loggable = formatted?.loggable ?? false
        for item in run {
            guard case .deliver(let item) = item else { continue }
            let index = recipientOfName[item.client]
            // A list stores a fix delivered to many once: the line is formatted once for them.
            if formatted == nil || formatted?.fix != item.fix || formatted?.accuracy != item.accuracy {
                loggable = format(item.fix, of: list, item.accuracy, logs: logs)
            }
            let slot = recipients.withUnsafeMutableBufferPointer { recipients in
                recipients[index].delivered += 1
                return recipients[index].logSlot
            }
            guard loggable else {
                unloggable = (count: (unloggable?.count ?? 0) + 1, first: unloggable?.first ?? recipients[index].name)
                continue
            }
            // The interval's reduced position delivered again is in the log already.
            if let slot, !item.again { waiting.append(slot) }
        }
        return unloggable
    }

    /// Whether the client at `index` in the names of the list last delivered has a log (a path,
    /// open or not), found by its slot, not by hashing its name.
    func hasLog(listClient index: Int, in logs: ClientLogs) -> Bool {
        recipients[recipientOfName[index]].logSlot.map { logs.hasPath(slot: $0) } ?? false
    }

    /// Makes `prefix` the line of `list.fixes[fix]` at `accuracy`; false when the fix cannot be a
    /// log record.
    private mutating func format(_ fix: Int, of list: EffectList, _ accuracy: DeliveredAccuracy, logs: ClientLogs) -> Bool {
        flush(to: logs)
        prefix.removeAll(keepingCapacity: true)
        let loggable = LogRecord.appendLinePrefix(of: list.fixes[fix], accuracy: accuracy, to: &prefix)
        formatted = (fix, accuracy, loggable)
        formattedTime = list.fixes[fix].time
        return loggable
    }

    /// Hands the queued lines to the logs.
    mutating func flush(to logs: ClientLogs) {
        guard !waiting.isEmpty else { return }
        logs.append(prefix: prefix, slots: waiting, time: formattedTime)
        waiting.removeAll(keepingCapacity: true)
    }

    /// Brings `recipientOfName` up to date for `listNames` (constant time when
    /// the engine's clients have not changed) and the log slots for a reload.
    private mutating func refresh(_ listNames: [String], logs: ClientLogs) {
        if logsGeneration != logs.generation {
            // A reload moved the logs: look every slot up again.
            logsGeneration = logs.generation
            for i in recipients.indices { recipients[i].logSlot = logs.slot(of: recipients[i].name) }
        }
        // Equal arrays sharing storage compare in constant time: the usual case.
        guard listNames != names else { return }
        names = listNames
        recipientOfName = listNames.map { name in
            if let known = byName[name] { return known }
            byName[name] = recipients.count
            recipients.append(Recipient(name: name, logSlot: logs.slot(of: name)))
            return recipients.count - 1
        }
    }
}
