import LocationCore

/// Carries out what the engine returns — the one piece of code `locationd run`
/// and `locationd replay` share, so the two cannot drift apart:
///
/// * `deliver` → the §5.3 log line → the client's `LogWriter` (and a
///   `location` event for watchers, when anyone watches). A fix delivered to
///   several clients at one accuracy is formatted once: the line up to the
///   client's name is shared, and only the name and the line's end are added
///   per client; and the delivery to the client's programs (`ProgramSinks`,
///   which only queues it);
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
    public private(set) var tally = Tally()
    /// The clients' program servers, when any serve (the daemon's; a replay has none).
    public var programs: ProgramSinks?
    private var persistRequested = false
    private var pending: [ControlEvent] = []
    private var line: [UInt8] = []
    /// The fix and accuracy `prefix` was formatted for (nil: none yet).
    private var formatted: (fix: Fix, accuracy: DeliveredAccuracy, loggable: Bool)?
    private var prefix: [UInt8] = []
    private var endings: [String: [UInt8]] = [:]

    /// A carrier writing to `logs`.
    public init(logs: ClientLogs) {
        self.logs = logs
        line.reserveCapacity(256)
        prefix.reserveCapacity(256)
    }

    /// Carries out `effects` in order. `eventTime` (UTC seconds) stamps engine
    /// events: the wall clock in the daemon, the input's own time in a replay.
    public func carry(_ effects: [Effect], eventTime: Double?) {
        for effect in effects {
            switch effect {
            case .deliver(let delivery): deliver(delivery)
            case .event(let event): observe(event, time: eventTime)
            case .persist: persistRequested = true
            }
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

    private func deliver(_ delivery: Delivery) {
        tally.delivered[delivery.client, default: 0] += 1
        if let formatted, formatted.accuracy == delivery.accuracy, formatted.fix == delivery.fix {
            // The same fix at the same accuracy as the client before: the prefix stands.
        } else {
            let record = LogRecord(delivery: delivery)
            prefix.removeAll(keepingCapacity: true)
            record?.appendLinePrefix(to: &prefix)
            formatted = (delivery.fix, delivery.accuracy, record != nil)
        }
        guard formatted?.loggable == true else {
            tally.unloggable += 1
            if tally.unloggable == 1 {
                Diagnostics.warning("a fix for \(delivery.client) has no writable time or position; it is not logged")
            }
            return
        }
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: prefix)
        line.append(contentsOf: ending(for: delivery.client))
        logs.append(line, client: delivery.client)
        programs?.deliver(delivery)
        if collectsLocations, let record = LogRecord(delivery: delivery) {
            pending.append(ControlEvent(location: record))
        }
    }

    /// `"name"}\n`, encoded once per client.
    private func ending(for client: String) -> [UInt8] {
        if let known = endings[client] { return known }
        let made = LogRecord.lineEnding(client: client)
        endings[client] = made
        return made
    }

    private func observe(_ event: Event, time: Double?) {
        switch event {
        case .authorization(let authorization):
            tally.authorizationChanges += 1
            programs?.grantChanged(authorization.client)
            Diagnostics.notice("\(authorization.client) is now \(authorization.statusDescription), \(authorization.accuracy) accuracy")
        case .prompt(let prompt, let open):
            if open {
                tally.promptsOpened += 1
                let answers = prompt.answers.map(\.rawValue).joined(separator: "|")
                Diagnostics.notice(
                    "\(prompt.client) asks (\(prompt.kind.rawValue)): \"\(prompt.text)\"; answer with: locationctl answer \(prompt.client) \(answers)")
            } else {
                Diagnostics.info("\(prompt.client)'s \(prompt.kind.rawValue) prompt closed")
            }
        case .error(let client, let code, let message):
            tally.errors[code, default: 0] += 1
            Diagnostics.log(code == .denied ? .notice : .info, "\(client): \(code.rawValue): \(message)")
        case .source(let state):
            Diagnostics.info("source: \(state.rawValue)")
        case .timeJump(let jump):
            Diagnostics.warning("source: " + jump.sentence)
        }
        if collectsEvents { pending.append(ControlEvent(event, time: time)) }
    }
}
