import LocationCore

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
    /// The bytes `prefix` was formatted from (nil: none yet).
    private var formatted: (fix: Fix, accuracy: DeliveredAccuracy, loggable: Bool)?
    private var prefix: [UInt8] = []
    /// Log slots whose next line is `prefix` and the client's ending, not yet handed to the logs.
    private var waiting: [Int] = []

    init(logsGeneration: Int) {
        self.logsGeneration = logsGeneration
        prefix.reserveCapacity(256)
    }

    /// Counts the deliveries of `run` and queues their lines; returns the
    /// clients of those whose fix cannot be a log record (nil: none).
    mutating func deliver(_ run: ArraySlice<EffectList.Item>, of list: EffectList, logs: ClientLogs) -> (
        count: Int, first: String
    )? {
        refresh(list.names, logs: logs)
        var unloggable: (count: Int, first: String)?
        // The fix `prefix` stands for in this list (a list stores a fix delivered to many once).
        var current = -1
        var currentAccuracy = DeliveredAccuracy.full
        var loggable = false
        for item in run {
            guard case .deliver(let item) = item else { continue }
            let index = recipientOfName[item.client]
            if item.fix != current || item.accuracy != currentAccuracy {
                current = item.fix
                currentAccuracy = item.accuracy
                loggable = format(list.fixes[item.fix], item.accuracy, client: list.names[item.client], logs: logs)
            }
            let slot = recipients.withUnsafeMutableBufferPointer { recipients in
                recipients[index].delivered += 1
                return recipients[index].logSlot
            }
            guard loggable else {
                unloggable = (count: (unloggable?.count ?? 0) + 1, first: unloggable?.first ?? recipients[index].name)
                continue
            }
            if let slot { waiting.append(slot) }
        }
        return unloggable
    }

    /// Makes `prefix` the line of `fix` at `accuracy`, unless it already is;
    /// false when the fix cannot be a log record.
    private mutating func format(_ fix: Fix, _ accuracy: DeliveredAccuracy, client: String, logs: ClientLogs) -> Bool {
        if let formatted, formatted.accuracy == accuracy, formatted.fix == fix { return formatted.loggable }
        flush(to: logs)
        let record = LogRecord(delivery: Delivery(client: client, fix: fix, accuracy: accuracy))
        prefix.removeAll(keepingCapacity: true)
        record?.appendLinePrefix(to: &prefix)
        formatted = (fix, accuracy, record != nil)
        return record != nil
    }

    /// Hands the queued lines to the logs.
    mutating func flush(to logs: ClientLogs) {
        guard !waiting.isEmpty else { return }
        logs.append(prefix: prefix, slots: waiting)
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
