#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem

/// `locationd replay` (docs/design.md §8): a recorded NMEA file through the
/// same engine and the same `EffectCarrier` as the daemon, as fast as it can
/// be read.
///
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
        /// The NMEA file; `-` is standard input.
        public var input: String
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
            input: String, config: DaemonConfig, events: [ReplayEvent] = [], logDirectory: String? = nil,
            saved: SavedState? = nil
        ) {
            self.input = input
            self.config = config
            self.events = events
            self.logDirectory = logDirectory
            self.saved = saved
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
            case .input(let error): "cannot read the NMEA input: \(error)"
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
        let fd: Int32
        if options.input == "-" {
            fd = 0
        } else {
            do {
                fd = try retryingEINTR("open \(options.input)") { open(options.input, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
            } catch {
                throw .input(error)
            }
        }
        defer { if fd != 0 { close(fd) } }

        let logs: ClientLogs
        do {
            logs = try ClientLogs(config: options.config, logDirectory: options.logDirectory, fsync: .interval)
        } catch {
            throw .logs(error)
        }
        let session = ReplaySession(options: options, carrier: EffectCarrier(logs: logs))
        var parser = NMEAParser()
        var total = 0
        var readError: SystemError?
        do {
            total = try DescriptorIO.readChunks(fd, chunkSize: chunkSize, name: options.input) { piece in
                parser.feed(piece) { session.handle($0) }
            }
        } catch {
            // What was read before the error is still replayed (and the logs closed) before it is reported.
            readError = error
        }
        parser.finish { session.handle($0) }
        session.finish()
        logs.closeAll()
        if let readError { throw .input(readError) }
        let tally = session.carrier.tally
        return ReplaySummary(
            input: options.input, bytes: total, statistics: parser.statistics, firstFixTime: session.firstFixTime,
            lastFixTime: session.lastFixTime,
            clients: logs.clients.map { ($0, tally.delivered[$0] ?? 0, logs.path(of: $0)) }
                .map { ReplaySummary.Client(name: $0.0, delivered: $0.1, log: $0.2) },
            eventsApplied: session.eventsApplied, eventsRefused: session.eventsRefused,
            tally: tally, seconds: clock.monotonic() - started)
    }
}

/// One replay's moving parts: the engine, the carrier, the events not yet applied.
private final class ReplaySession {
    let carrier: EffectCarrier
    private var engine: Engine
    private let events: [ReplayEvent]
    private var nextEvent = 0
    private var effects = EffectList()
    private var clock = ReplayClock()
    private(set) var eventsApplied = 0
    private(set) var eventsRefused = 0
    private(set) var firstFixTime: Double?
    private(set) var lastFixTime: Double?

    init(options: Replayer.Options, carrier: EffectCarrier) {
        self.carrier = carrier
        engine = Engine(settings: options.config.engineSettings, saved: options.saved, seed: Replayer.seed)
        events = options.events
        effects.reserveCapacity(16)
    }

    /// One epoch from the parser: the events due by its time, then the fix.
    func handle(_ fix: Fix) {
        guard let time = fix.time, time.isFinite else { return }
        if firstFixTime == nil { firstFixTime = time }
        lastFixTime = time
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
