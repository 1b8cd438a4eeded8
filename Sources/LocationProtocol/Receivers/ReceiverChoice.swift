import LocationValues

/// Which receiver every `receiver = best` client follows, with hysteresis
/// (docs/sources.md, "Several receivers"). Pure: the engine hands it each
/// fix's receiver and quality with its monotonic `now`.
///
/// * The first receiver with a usable fix is chosen; for `failover` seconds
///   after that, while no track has been built on it, one that ranks above it
///   takes over at once (receivers answer in no particular order at start).
/// * The chosen receiver is kept while it gives usable fixes. When it has
///   given none for `failover` seconds (silent, or reporting no fix), the
///   next usable fix of another receiver that is itself fresh moves the choice
///   to the best-ranked fresh receiver (`ReceiverRank.ranksAbove`).
/// * A receiver that reports while the chosen one still does takes over only
///   when it has been `ReceiverRank` "clearly better" on every one of its fixes
///   for `sustain` seconds.
public struct ReceiverChoice: Sendable, Hashable {
    /// Why the choice moved.
    public enum Reason: Sendable, Hashable {
        /// The first receiver with a usable fix.
        case first
        /// The receiver in use gave no usable fix for this many seconds.
        case silent(seconds: Double)
        /// Another was clearly better for `sustain` seconds; by this many metres of estimate, when both had one.
        case better(metres: Double?)
        /// Within `failover` seconds of the first choice (`seconds` after it), another ranked above it
        /// (`ReceiverRank.ranksAbove`); by this many metres of estimate, when both had one.
        case outranksAtStart(seconds: Double, metres: Double?)
    }

    /// A change of receiver.
    public struct Switch: Sendable, Hashable {
        /// The receiver left (`nil` for the first choice).
        public var from: String?
        /// The receiver chosen.
        public var to: String
        /// Why.
        public var reason: Reason

        /// A switch from its parts.
        public init(from: String?, to: String, reason: Reason) {
            self.from = from
            self.to = to
            self.reason = reason
        }

        /// `following /dev/ttyACM0: /dev/ttyUSB0 gave no usable fix for 3 s`, for people.
        public var sentence: String {
            let to = Self.name(self.to)
            switch reason {
            case .first:
                return "following \(to): the first receiver with a fix"
            case .silent(let seconds):
                let s = seconds.isFinite ? (FixedDecimal.format(seconds, decimals: 1) ?? "?") + " s" : "ever"
                return "following \(to): \(Self.name(from ?? "")) gave no usable fix for \(s)"
            case .better(let metres):
                return "following \(to): clearly better than \(Self.name(from ?? "")) for \(Int(ReceiverChoice.sustain)) s\(Self.margin(metres))"
            case .outranksAtStart(let seconds, let metres):
                let after = FixedDecimal.format(seconds, decimals: 1) ?? "?"
                return "following \(to): ranks above \(Self.name(from ?? "")), the first receiver with a fix \(after) s before\(Self.margin(metres))"
            }
        }

        /// ` (estimate 12.0 m smaller)`, or what else made the fix better.
        static func margin(_ metres: Double?) -> String {
            metres.map { " (estimate \(FixedDecimal.format($0, decimals: 1) ?? "?") m smaller)" } ?? " (a better fix mode or an estimate)"
        }

        /// A receiver's name as people read it ("the unnamed receiver" for "").
        package static func name(_ device: String) -> String {
            device.isEmpty ? "the unnamed receiver" : device
        }
    }

    /// What is known of one receiver.
    public struct Seen: Sendable, Hashable {
        /// Its latest usable fix's quality (`nil` once it reports no fix).
        public var quality: ReceiverQuality?
        /// When (`now`) it last gave a usable fix.
        public var lastUsableAt: Double?
        /// Since when it has been clearly better than the chosen one, if it is.
        var betterSince: Double?
        /// Fixes (usable or not) it gave.
        public var fixes = 0
        /// When (`now`) the time to first fix started: its first report, or the source's latest reconnect.
        public var searchingSince: Double?
        /// Seconds from `searchingSince` to its first usable fix after it; `nil` while it has none.
        public var timeToFirstFix: Double?

        /// The memberwise initializer, for the engine's module too.
        package init(
            quality: ReceiverQuality? = nil, lastUsableAt: Double? = nil, betterSince: Double? = nil, fixes: Int = 0,
            searchingSince: Double? = nil, timeToFirstFix: Double? = nil
        ) {
            self.quality = quality
            self.lastUsableAt = lastUsableAt
            self.betterSince = betterSince
            self.fixes = fixes
            self.searchingSince = searchingSince
            self.timeToFirstFix = timeToFirstFix
        }
    }

    /// Seconds without a usable fix before leaving a receiver (`[source] failover`).
    public var failover: Double
    /// Seconds a challenger must stay clearly better before it is chosen while the chosen one still reports.
    public static let sustain = 10.0
    /// The receiver `best` clients follow; `nil` before any usable fix.
    public private(set) var chosen: String?
    /// When the first receiver was chosen.
    private var firstChosenAt: Double?
    /// Every receiver seen, by name ("" for an unnamed one).
    public private(set) var seen = ReceiverTable<Seen>()

    /// No receiver chosen yet.
    public init(failover: Double = 3) {
        self.failover = failover
    }

    /// Takes a fix of `device` (`quality` when usable, else `nil`) at `now`; returns the switch it causes.
    public mutating func observe(_ device: String, quality: ReceiverQuality?, now: Double) -> Switch? {
        let slot = seen.slot(of: device, adding: Seen(searchingSince: now))
        seen.values[slot].quality = quality
        seen.values[slot].fixes += 1
        if quality != nil {
            seen.values[slot].lastUsableAt = now
            if seen.values[slot].timeToFirstFix == nil, let since = seen.values[slot].searchingSince {
                seen.values[slot].timeToFirstFix = max(0, now - since)
            }
        }
        guard let quality else { return nil }
        guard let current = chosen else {
            chosen = device
            firstChosenAt = now
            return Switch(from: nil, to: device, reason: .first)
        }
        if current == device { return nil }
        let incumbent = seen[current] ?? Seen()
        let silentFor = incumbent.lastUsableAt.map { now - $0 } ?? .infinity
        if silentFor >= failover {
            let to = bestFresh(now: now) ?? device
            return move(from: current, to: to, reason: .silent(seconds: silentFor))
        }
        guard let held = incumbent.quality else { return nil }
        if let first = firstChosenAt, now - first < failover, ReceiverRank.ranksAbove(quality, held) {
            let metres = held.horizontalError.flatMap { h in quality.horizontalError.map { h - $0 } }
            return move(from: current, to: device, reason: .outranksAtStart(seconds: now - first, metres: metres))
        }
        switch ReceiverRank.compare(quality, with: held) {
        case .clearlyBetter(let metres):
            let since = seen.values[slot].betterSince ?? now
            seen.values[slot].betterSince = since
            if now - since >= Self.sustain { return move(from: current, to: device, reason: .better(metres: metres)) }
        case .slightlyBetter, .notBetter:
            seen.values[slot].betterSince = nil
        }
        return nil
    }

    /// The source reconnected at `now`: every receiver it brought searches for a first fix again.
    public mutating func sourceReconnected(now: Double) {
        sourceReconnected(now: now, receivers: seen.names)
    }

    /// One source of several reconnected at `now`: the `receivers` it brought search for a first fix again.
    public mutating func sourceReconnected(now: Double, receivers: [String]) {
        for name in receivers {
            guard let slot = seen.slot(of: name) else { continue }
            seen.values[slot].searchingSince = now
            seen.values[slot].timeToFirstFix = nil
        }
    }

    /// The best-ranked receiver with a usable fix within `failover` seconds.
    package func bestFresh(now: Double) -> String? {
        var best: (String, ReceiverQuality)?
        for (name, entry) in zip(seen.names, seen.values).sorted(by: { $0.0 < $1.0 }) {
            guard let q = entry.quality, let at = entry.lastUsableAt, now - at < failover else { continue }
            if let held = best, !ReceiverRank.ranksAbove(q, held.1) { continue }
            best = (name, q)
        }
        return best?.0
    }

    private mutating func move(from: String, to: String, reason: Reason) -> Switch {
        chosen = to
        for slot in seen.values.indices { seen.values[slot].betterSince = nil }
        return Switch(from: from, to: to, reason: reason)
    }
}
