import LocationCore

/// Carries out what the engine returns — the one piece of code `locationd run`
/// and `locationd replay` share, so the two cannot drift apart:
///
/// * `deliver` → the log line (docs/protocol.md, "Log records") → the client's `LogWriter` (and a
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
    /// Where positions handed to the logs are counted (the access report; the daemon's, not a replay's).
    var report: AccessLedger?
    /// The `eventTime` of the carry in progress.
    private var carryTime: Double?

    // `@exclusivity(unchecked)` here: what the fix path mutates on every fix, touched only by
    // its one owner (behind DaemonCore's lock, or a replay) and never re-entrantly, so the
    // runtime's per-access check bought nothing and cost about a tenth of the instructions
    // per fix (docs/ARCHITECTURE.md, "Threads and who owns what"; docs/performance.md).
    /// The tally but for deliveries, which `fanout` counts per recipient.
    @exclusivity(unchecked) private var counted = Tally()
    @exclusivity(unchecked) private var persistRequested = false
    @exclusivity(unchecked) private var pending: [ControlEvent] = []
    @exclusivity(unchecked) private var fanout: LogFanout

    /// A carrier writing to `logs`.
    public init(logs: ClientLogs) {
        self.logs = logs
        fanout = LogFanout(logsGeneration: logs.generation)
    }

    /// Carries out `effects` in order. `eventTime` (UTC seconds) stamps engine
    /// events: the wall clock in the daemon, the input's own time in a replay.
    /// Every line is handed to the logs before it returns.
    public func carry(_ effects: EffectList, eventTime: Double?) {
        carryTime = eventTime
        fanout.startList()
        let items = effects.items
        var i = 0
        while i < items.count {
            switch items[i] {
            case .deliver:
                // A run of deliveries (one fix to many clients) is fanned out in one call.
                var end = i + 1
                while end < items.count, case .deliver = items[end] { end += 1 }
                deliver(items[i..<end], of: effects)
                i = end
            case .other(let index):
                switch effects.others[index] {
                case .deliver(let delivery):
                    // A list of its own between the runs of `effects`.
                    fanout.startList()
                    deliver(EffectList([.deliver(delivery)]))
                    fanout.startList()
                case .event(let event): observe(event, time: eventTime)
                case .persist: persistRequested = true
                }
                i += 1
            }
        }
        fanout.flush(to: logs)
    }

    /// Carries out `effects` in order (see `carry(_: EffectList, eventTime:)`).
    public func carry(_ effects: [Effect], eventTime: Double?) {
        carry(EffectList(effects), eventTime: eventTime)
    }

    private func deliver(_ list: EffectList) {
        let items = list.items
        deliver(items[...], of: list)
    }

    /// Deliveries: counted and queued for the logs by `fanout`; then, only when
    /// someone takes them, the client's programs and watchers' `location` events.
    private func deliver(_ run: ArraySlice<EffectList.Item>, of list: EffectList) {
        if let unloggable = fanout.deliver(run, of: list, logs: logs) {
            counted.unloggable += unloggable.count
            if counted.unloggable == unloggable.count {
                Diagnostics.log.warning("a fix for \(unloggable.first) has no writable time or position; it is not logged")
            }
        }
        if let report, let time = carryTime {
            // Every position handed to a client's log, for the access report.
            for item in run {
                guard case .deliver(let item) = item else { continue }
                let client = list.names[item.client]
                if logs.path(of: client) != nil { report.count(client, sink: "log", accuracy: item.accuracy, time: time) }
            }
        }
        let programs = programs?.isWatching == true ? programs : nil
        guard programs != nil || collectsLocations else { return }
        for item in run {
            guard case .deliver(let item) = item else { continue }
            let delivery = list.delivery(item)
            guard let record = LogRecord(delivery: delivery) else { continue }
            programs?.deliver(delivery)
            if collectsLocations { pending.append(ControlEvent(location: record)) }
        }
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
            Diagnostics.clients.notice("\(authorization.client) is now \(authorization.statusDescription), \(authorization.accuracy) accuracy")
        case .prompt(let prompt, let open):
            if open {
                counted.promptsOpened += 1
                let answers = prompt.answers.map(\.rawValue).joined(separator: "|")
                Diagnostics.clients.notice(
                    "\(prompt.client) asks (\(prompt.kind.rawValue)): \"\(prompt.text)\"; answer with: locationctl answer \(prompt.client) \(answers)")
            } else {
                Diagnostics.clients.info("\(prompt.client)'s \(prompt.kind.rawValue) prompt closed")
            }
        case .error(let client, let code, let message):
            counted.errors[code, default: 0] += 1
            Diagnostics.clients.log(code == .denied ? .notice : .info, "\(client): \(code.rawValue): \(message)")
        case .source(let state):
            Diagnostics.source.info(state.rawValue)
        case .timeJump(let jump):
            Diagnostics.source.warning(jump.sentence)
        case .use(let change):
            Diagnostics.clients.info("\(change.client): \(change.kind.rawValue): \(change.message)")
        case .receiver(let change):
            Diagnostics.source.notice(change.sentence)
        }
        if collectsEvents { pending.append(ControlEvent(event, time: time)) }
    }
}
