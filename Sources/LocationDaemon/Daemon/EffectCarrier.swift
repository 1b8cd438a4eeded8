import LocationCore

/// Carries out what the engine returns — the one piece of code `locationd run`
/// and `locationd replay` share, so the two cannot drift apart:
///
/// * `deliver` → the §5.3 log line → the client's `LogWriter` (and a
///   `location` event for watchers, when anyone watches). A fix delivered to
///   several clients at one accuracy is formatted once: the line up to the
///   client's name is shared, and only the name and the line's end are added
///   per client; and the delivery to the client's programs (`ProgramSinks`,
///   which only queues it; an authorization change is passed on too);
/// * `event` → a diagnostic line for people (client-facing errors at
///   info/notice, authorization changes and prompts at notice), and a
///   `ControlEvent` kept for watchers (`takeEvents()`);
/// * `persist` → a flag the owner reads with `takePersistRequest()` and
///   acts on (the daemon debounces state saves; a replay never saves).
///
/// Not thread-safe: one owner (the daemon core's actor, or a replay) calls it.
public final class EffectCarrier {
    /// What has been carried out, for status lines and replay's summary.
    public struct Tally: Sendable, Hashable {
        /// Deliveries per client (logged or not).
        public var delivered: [String: Int] = [:]
        /// Deliveries whose fix could not be a log record (never expected from the engine).
        public var unloggable = 0
        /// Client-facing errors by code (`location-unknown`, `denied`).
        public var errors: [ClientErrorCode: Int] = [:]
        /// Prompts opened.
        public var promptsOpened = 0
        /// Authorization events.
        public var authorizationChanges = 0
    }

    /// The clients' logs.
    public let logs: ClientLogs
    /// Whether to keep every engine event for `takeEvents()` (the daemon does while anyone watches).
    public var collectsEvents = false
    /// Whether to keep `location` events too (building them costs a little per fix).
    public var collectsLocations = false
    /// What has been carried out so far.
    public var tally: Tally {
        var tally = counted
        for recipient in fanout.recipients where recipient.delivered > 0 {
            tally.delivered[recipient.name, default: 0] += recipient.delivered
        }
        return tally
    }

    /// The clients' program servers, when any serve (the daemon's; a replay has none).
    public var programs: ProgramSinks?

    /// The tally but for deliveries, which `fanout` counts per recipient.
    private var counted = Tally()
    private var persistRequested = false
    private var pending: [ControlEvent] = []
    private var fanout: Fanout

    /// A carrier writing to `logs`.
    public init(logs: ClientLogs) {
        self.logs = logs
        fanout = Fanout(logsGeneration: logs.generation)
    }

    /// Carries out `effects` in order. `eventTime` (UTC seconds) stamps engine
    /// events: the wall clock in the daemon, the input's own time in a replay.
    /// Every line is handed to the logs before it returns.
    public func carry(_ effects: [Effect], eventTime: Double?) {
        let locations = collectsLocations
        for effect in effects {
            switch effect {
            case .deliver(let delivery):
                if !fanout.deliver(delivery, logs: logs) {
                    counted.unloggable += 1
                    if counted.unloggable == 1 {
                        Diagnostics.warning("a fix for \(delivery.client) has no writable time or position; it is not logged")
                    }
                } else {
                    programs?.deliver(delivery)
                    if locations, let record = LogRecord(delivery: delivery) {
                        pending.append(ControlEvent(location: record))
                    }
                }
            case .event(let event): observe(event, time: eventTime)
            case .persist: persistRequested = true
            }
        }
        fanout.flush(to: logs)
    }

    /// The events kept since the last call, in the order the engine produced them.
    public func takeEvents() -> [ControlEvent] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    /// Whether a `persist` effect came since the last call; clears the flag.
    public func takePersistRequest() -> Bool {
        defer { persistRequested = false }
        return persistRequested
    }

    private func observe(_ event: Event, time: Double?) {
        switch event {
        case .authorization(let authorization):
            counted.authorizationChanges += 1
            programs?.grantChanged(authorization.client)
            Diagnostics.notice("\(authorization.client) is now \(authorization.statusDescription), \(authorization.accuracy) accuracy")
        case .prompt(let prompt, let open):
            if open {
                counted.promptsOpened += 1
                let answers = prompt.answers.map(\.rawValue).joined(separator: "|")
                Diagnostics.notice(
                    "\(prompt.client) asks (\(prompt.kind.rawValue)): \"\(prompt.text)\"; answer with: locationctl answer \(prompt.client) \(answers)")
            } else {
                Diagnostics.info("\(prompt.client)'s \(prompt.kind.rawValue) prompt closed")
            }
        case .error(let client, let code, let message):
            counted.errors[code, default: 0] += 1
            Diagnostics.log(code == .denied ? .notice : .info, "\(client): \(code.rawValue): \(message)")
        case .source(let state):
            Diagnostics.info("source: \(state.rawValue)")
        case .timeJump(let jump):
            Diagnostics.warning("source: " + jump.sentence)
        }
        if collectsEvents { pending.append(ControlEvent(event, time: time)) }
    }
}

/// The delivery half of `EffectCarrier`, in one value so a fix delivered to
/// many clients costs little per client: each client's count, where its log
/// is, and the line shared by clients of one fix at one accuracy.
private struct Fanout {
    /// A client deliveries have gone to.
    struct Recipient {
        var name: String
        /// Its place in the logs (nil: none), as of `logsGeneration`.
        var logSlot: Int?
        var delivered = 0
    }

    /// Everyone delivered to so far; `byName` finds one, but the engine
    /// delivers in config order, so `next` (where the last one was, plus one)
    /// usually finds it with one string comparison.
    private(set) var recipients: [Recipient] = []
    private var byName: [String: Int] = [:]
    private var next = 0
    private var logsGeneration: Int
    /// The fix and accuracy `prefix` was formatted for (nil: none yet).
    private var formatted: (fix: Fix, accuracy: DeliveredAccuracy, loggable: Bool)?
    private var prefix: [UInt8] = []
    /// Log slots whose next line is `prefix` and the client's ending, not yet handed to the logs.
    private var waiting: [Int] = []

    init(logsGeneration: Int) {
        self.logsGeneration = logsGeneration
        prefix.reserveCapacity(256)
    }

    /// Counts `delivery` and queues its line; false when its fix cannot be a log record.
    mutating func deliver(_ delivery: Delivery, logs: ClientLogs) -> Bool {
        let index = recipient(delivery.client, logs: logs)
        recipients[index].delivered += 1
        if let formatted, formatted.accuracy == delivery.accuracy, formatted.fix == delivery.fix {
            // The same fix at the same accuracy as the client before: the prefix stands.
        } else {
            flush(to: logs)
            let record = LogRecord(delivery: delivery)
            prefix.removeAll(keepingCapacity: true)
            record?.appendLinePrefix(to: &prefix)
            formatted = (delivery.fix, delivery.accuracy, record != nil)
        }
        guard formatted?.loggable == true else { return false }
        if let slot = recipients[index].logSlot { waiting.append(slot) }
        return true
    }

    /// Hands the queued lines to the logs.
    mutating func flush(to logs: ClientLogs) {
        guard !waiting.isEmpty else { return }
        logs.append(prefix: prefix, slots: waiting)
        waiting.removeAll(keepingCapacity: true)
    }

    /// The index of `client` in `recipients`, added on its first delivery.
    private mutating func recipient(_ client: String, logs: ClientLogs) -> Int {
        if logsGeneration != logs.generation {
            // A reload moved the logs: look every slot up again.
            logsGeneration = logs.generation
            for i in recipients.indices { recipients[i].logSlot = logs.slot(of: recipients[i].name) }
        }
        let index: Int
        if next < recipients.count, recipients[next].name == client {
            index = next
        } else if let known = byName[client] {
            index = known
        } else {
            index = recipients.count
            byName[client] = index
            recipients.append(Recipient(name: client, logSlot: logs.slot(of: client)))
        }
        next = index + 1 == recipients.count ? 0 : index + 1
        return index
    }
}
