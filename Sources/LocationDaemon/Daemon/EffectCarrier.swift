import LocationCore
import LocationProtocol
import LocationValues

/// Carries out what the engine returns — the one piece of code `locationd run`
/// and `locationd replay` share, so the two cannot drift apart:
///
/// * `deliver` → every output face that takes deliveries (`OutputFace`): the
///   clients' logs first (`LogFace`: the log line, docs/protocol.md "Log
///   records", formatted once for every client given a fix at one accuracy),
///   then the others in order (the daemon's: the watchers' `location` events,
///   the program sockets, which only queue);
/// * `event` → a diagnostic line for people (client-facing errors at
///   info/notice, authorization changes and prompts at notice), and every
///   face (`observe`; an authorization change also as `grantChanged`);
/// * `persist` → a flag the owner reads with `takePersistRequest()` and
///   acts on (the daemon debounces state saves; a replay never saves).
///
/// At the end of each carry every face is told (`carried`): the logs are handed
/// their lines, the watchers their events.
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
    public var logs: ClientLogs { logFace.logs }
    /// What has been carried out so far.
    public var tally: Tally {
        var tally = counted
        tally.delivered = logFace.delivered
        tally.unloggable = logFace.unloggable
        return tally
    }

    /// Every output face, the logs first (made once: the sky asks them at each view).
    let faces: [any OutputFace]

    /// The logs' face, handed deliveries without asking.
    private let logFace: LogFace
    /// The faces after the logs, in order.
    private let others: [any OutputFace]

    // `@exclusivity(unchecked)` here: what the fix path mutates on every fix, touched only by
    // its one owner (behind DaemonCore's lock, or a replay) and never re-entrantly, so the
    // runtime's per-access check bought nothing and cost about a tenth of the instructions
    // per fix (docs/ARCHITECTURE.md, "Threads and who owns what"; docs/performance.md).
    /// The tally but for deliveries, which the log face counts.
    @exclusivity(unchecked) private var counted = Tally()
    @exclusivity(unchecked) private var persistRequested = false

    /// A carrier writing to `logs` (a replay's).
    public convenience init(logs: ClientLogs) {
        self.init(logs: logs, faces: [])
    }

    /// A carrier writing to `logs`, then handing every effect to `faces` in order.
    init(logs: ClientLogs, faces: [any OutputFace]) {
        logFace = LogFace(logs: logs)
        others = faces
        self.faces = [logFace] + faces
    }

    /// Carries out `effects` in order. `eventTime` (UTC seconds) stamps engine
    /// events: the wall clock in the daemon, the input's own time in a replay.
    /// Every line is handed to the logs before it returns.
    public func carry(_ effects: EffectList, eventTime: Double?) {
        logFace.startList()
        let items = effects.items
        var i = 0
        while i < items.count {
            switch items[i] {
            case .deliver:
                // A run of deliveries (one fix to many clients) is handed over in one call.
                var end = i + 1
                while end < items.count, case .deliver = items[end] { end += 1 }
                deliver(FaceDeliveries(run: items[i..<end], list: effects, time: eventTime))
                i = end
            case .other(let index):
                switch effects.others[index] {
                case .deliver(let delivery):
                    // A list of its own between the runs of `effects`.
                    let list = EffectList([.deliver(delivery)])
                    logFace.startList()
                    deliver(FaceDeliveries(run: list.items[...], list: list, time: eventTime))
                    logFace.startList()
                case .event(let event): observe(event, time: eventTime)
                case .persist: persistRequested = true
                }
                i += 1
            }
        }
        logFace.carried()
        for face in others { face.carried() }
    }

    /// Carries out `effects` in order (see `carry(_: EffectList, eventTime:)`).
    public func carry(_ effects: [Effect], eventTime: Double?) {
        carry(EffectList(effects), eventTime: eventTime)
    }

    private func deliver(_ deliveries: FaceDeliveries) {
        logFace.deliver(deliveries)
        for face in others where face.wantsDeliveries { face.deliver(deliveries) }
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
            for face in others { face.grantChanged(authorization.client) }
            Diagnostics.clients.notice("\(authorization.client) is now \(authorization.statusDescription), \(authorization.accuracy) accuracy")
        case .prompt(let prompt, let open):
            if open {
                counted.promptsOpened += 1
                // The text may hold an app's own name (a desktop id): escaped, as everything a peer chose.
                Diagnostics.clients.notice(
                    "\(prompt.client) asks (\(prompt.kind.rawValue)): \"\(PeerText.escaped(prompt.text))\"; answer with: \(Command.answerLine(prompt))")
            } else {
                Diagnostics.clients.info("\(prompt.client)'s \(prompt.kind.rawValue) prompt closed")
            }
        case .promptWithdrawn(let prompt, let reason):
            Diagnostics.clients.notice("\(prompt.client)'s \(prompt.kind.rawValue) prompt withdrawn, unanswered: \(reason)")
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
        for face in others { face.observe(event, time: time) }
    }
}
