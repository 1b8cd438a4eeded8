#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem

/// `locationd replay` (docs/design.md §8): recorded NMEA files and gpsd JSON
/// logs through the same engine and the same `EffectCarrier` as the daemon,
/// as fast as they can be read.
///
/// * Each NMEA file is its own receiver, named by its path; a gpsd log brings
///   the receivers its TPVs name (`ReplayInput`). The fixes of all are handed
///   to the engine in time order (the earliest pending fix first; on a tie,
///   the file named first), so clients follow the best receiver by the
///   daemon's own rule.
/// * The engine's clock is a monotonic clock built from the fixes' own times
///   (`ReplayClock`: forward steps advance it, a step back adds nothing), so
///   timers due by a fix fire first and no ticks are needed; a recording whose
///   time jumps cannot stop them.
/// * Events are applied before the first fix whose time is at or after
///   their `at` (with `now = at`); events after the last fix are applied at
///   the end, in order. A refused event is reported and the replay goes on.
/// * Deterministic: the reduced-accuracy secrets of clients without saved
///   state are drawn from the constant `seed` (a `--state` file brings its
///   own), so the same file, config, events and state give byte-identical logs.
/// * Logs are written through `LogWriter` as the daemon writes them
///   (appended, torn tails repaired) but synced once, at the end: a replay is
///   a batch job, not a field session. The state is never saved.
public enum Replayer {
    /// What to replay.
    public struct Options: Sendable {
        /// The recordings (NMEA files, gpsd JSON logs); `-` is standard input.
        public var inputs: [String]
        /// The configuration (clients, their settings and logs).
        public var config: DaemonConfig
        /// Events in `at` order (as `ReplayEvents.parse` returns them).
        public var events: [ReplayEvent]
        /// `--log-dir`: every client's log goes here instead of `log_dir`.
        public var logDirectory: String?
        /// `--state`: the state to start from instead of the config's initial values.
        public var saved: SavedState?

        /// Options from their parts.
        public init(
            inputs: [String], config: DaemonConfig, events: [ReplayEvent] = [], logDirectory: String? = nil,
            saved: SavedState? = nil
        ) {
            self.inputs = inputs
            self.config = config
            self.events = events
            self.logDirectory = logDirectory
            self.saved = saved
        }

        /// Options for one file.
        public init(
            input: String, config: DaemonConfig, events: [ReplayEvent] = [], logDirectory: String? = nil,
            saved: SavedState? = nil
        ) {
            self.init(inputs: [input], config: config, events: events, logDirectory: logDirectory, saved: saved)
        }
    }

    /// Why a replay could not run.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The input could not be opened or read.
        case input(SystemError)
        /// A client's log could not be opened.
        case logs(ClientLogs.OpenErrors)

        /// One sentence per problem.
        public var description: String {
            switch self {
            case .input(let error): "cannot read the input: \(error)"
            case .logs(let errors): errors.description
            }
        }
    }

    /// The random seed of every replay: ASCII `location`. A constant, so a
    /// replay of reduced clients is repeatable; documented in locationd(8).
    public static let seed: UInt64 = 0x6C6F_6361_7469_6F6E
    /// Bytes read per `read(2)`.
    public static let chunkSize = 1 << 20

    /// Runs the replay and returns its summary.
    public static func run(_ options: Options, clock: DaemonClock = .system) throws(Failure) -> ReplaySummary {
        let started = clock.monotonic()
        var inputs: [ReplayInput] = []
        for path in options.inputs {
            do {
                inputs.append(try ReplayInput(path: path))
            } catch {
                throw .input(error)
            }
        }

        let logs: ClientLogs
        do {
            logs = try ClientLogs(config: options.config, logDirectory: options.logDirectory, fsync: .interval)
        } catch {
            throw .logs(error)
        }
        let session = ReplaySession(options: options, carrier: EffectCarrier(logs: logs))
        // What was read before an input's read error is still replayed (and the logs closed) before it is reported.
        while let input = earliest(inputs), let (fix, arrival) = input.take() {
            session.handle(fix, arrival: arrival)
        }
        session.finish()
        logs.closeAll()
        if let readError = inputs.lazy.compactMap(\.error).first { throw .input(readError) }
        let tally = session.carrier.tally
        return ReplaySummary(
            inputs: options.inputs, bytes: inputs.reduce(0) { $0 + $1.bytes },
            files: inputs.map {
                ReplaySummary.File(
                    path: $0.path, format: $0.format ?? .nmea, bytes: $0.bytes, nmea: $0.statistics,
                    gpsd: $0.gpsdStatistics, taggedChunks: $0.taggedChunks, tagProblem: $0.tagProblem)
            },
            firstFixTime: session.firstFixTime,
            lastFixTime: session.lastFixTime,
            clients: logs.clients.map { ($0, tally.delivered[$0] ?? 0, logs.path(of: $0)) }
                .map { ReplaySummary.Client(name: $0.0, delivered: $0.1, log: $0.2) },
            eventsApplied: session.eventsApplied, eventsRefused: session.eventsRefused,
            tally: tally, seconds: clock.monotonic() - started)
    }

    /// The input whose next fix is earliest (by when its bytes came, for a tagged raw capture; a fix without a time first: the session drops it); on a tie the
    /// input named first, so the order is deterministic. `nil` when all have ended.
    private static func earliest(_ inputs: [ReplayInput]) -> ReplayInput? {
        var best: (input: ReplayInput, time: Double)?
        for input in inputs {
            guard let time = input.nextTime() else { continue }
            if time < best?.time ?? .infinity { best = (input, time) }
        }
        return best?.input
    }
}

/// One replay's moving parts: the engine, the carrier, the events not yet applied.
private final class ReplaySession {
    let carrier: EffectCarrier
    // `@exclusivity(unchecked)`: what every fix touches, owned by the one replay and never
    // accessed re-entrantly (as `ReplayInput`'s; docs/performance.md).
    @exclusivity(unchecked) private var engine: Engine
    private let events: [ReplayEvent]
    @exclusivity(unchecked) private var nextEvent = 0
    @exclusivity(unchecked) private var effects = EffectList()
    @exclusivity(unchecked) private var clock = ReplayClock()
    private(set) var eventsApplied = 0
    private(set) var eventsRefused = 0
    @exclusivity(unchecked) private(set) var firstFixTime: Double?
    @exclusivity(unchecked) private(set) var lastFixTime: Double?

    init(options: Replayer.Options, carrier: EffectCarrier) {
        self.carrier = carrier
        engine = Engine(settings: options.config.engineSettings, saved: options.saved, seed: Replayer.seed)
        events = options.events
        effects.reserveCapacity(16)
    }

    /// One epoch from the parser: the events due by its time, then the fix. `arrival`: when its
    /// bytes came, from a raw capture's time tags; the replay's time then (its clock, the events
    /// due, the effects' time), the fix keeping its own.
    func handle(_ fix: Fix, arrival: Double?) {
        guard let fixTime = fix.time, fixTime.isFinite else { return }
        if firstFixTime == nil { firstFixTime = fixTime }
        lastFixTime = fixTime
        let time = arrival ?? fixTime
        var next = clock
        let now = next.advance(toFixTime: time)
        while nextEvent < events.count, events[nextEvent].at <= time {
            apply(events[nextEvent], now: clock.reading(forEventAt: events[nextEvent].at, limit: now))
            nextEvent += 1
        }
        clock = next
        effects.removeAll(keepingCapacity: true)
        engine.handle(.fix(fix), now: now, into: &effects)
        carrier.carry(effects, eventTime: time)
        _ = carrier.takePersistRequest()
    }

    /// End of input: the events after the last fix, in order.
    func finish() {
        while nextEvent < events.count {
            apply(events[nextEvent], now: clock.reading(forEventAt: events[nextEvent].at))
            nextEvent += 1
        }
    }

    private func apply(_ event: ReplayEvent, now: Double) {
        let result = engine.handle(event.command, now: now)
        carrier.carry(result.effects, eventTime: event.at)
        _ = carrier.takePersistRequest()
        let what = "events line \(event.line) (\(event.command.name) at \(UTCTime.format(event.at)))"
        switch result.outcome {
        case .success(let outcome):
            eventsApplied += 1
            Diagnostics.notice("\(what): \(outcome.message)")
        case .failure(let error):
            eventsRefused += 1
            Diagnostics.warning("\(what) refused: \(error)")
        }
    }
}
