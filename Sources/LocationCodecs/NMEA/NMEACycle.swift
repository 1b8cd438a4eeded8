/// What the parser has learned about the receiver's reporting cycle, from
/// epochs that ended on their own (a new time arrived, or the input went
/// quiet):
///
/// * the *profile*: the most times each sentence (talker and type) occurred in
///   one epoch. One more than that means a new epoch has begun, even when the
///   sentence that starts it was lost.
/// * the *last sentence* of the cycle (key and occurrence, e.g. the 4th
///   `GNGSA`), once it ended `needed` complete epochs in a row. From then on an
///   epoch is emitted as soon as it arrives. Each time that proves premature
///   (more of the epoch arrives after it), twice as many epochs in a row are
///   needed before trusting it again, so receivers with an irregular cycle fall
///   back to emitting when the next epoch starts.
struct NMEACycle: Sendable {
    /// The learned last sentence of the cycle.
    private(set) var ender: (key: UInt64, occurrence: Int)?
    private var profile = NMEAKeyCounts()
    private var candidate: (key: UInt64, occurrence: Int)?
    private var run = 0
    private var needed = 2

    init() {}

    /// How many of `key` one epoch may hold before it must be a new epoch.
    /// Timed sentences (GGA, RMC, GLL, GNS) come once per epoch unless the
    /// receiver has shown otherwise; untimed ones are unlimited until learned.
    func limit(for key: UInt64, timed: Bool) -> Int {
        let learned = profile.count(of: key)
        if learned > 0 { return learned }
        return timed ? 1 : Int.max
    }

    /// An epoch ended at the `count`-th `key` (one more than the profile allowed) was not over:
    /// a sentence with its time came after. One epoch may hold `count` of them from now on.
    mutating func splitWasWrong(_ key: UInt64, count: Int) {
        profile.raise(key, to: count)
    }

    /// A complete epoch: its sentence counts and its last sentence.
    mutating func learn(_ counts: NMEAKeyCounts, last: (key: UInt64, occurrence: Int)) {
        profile.raise(toCover: counts)
        if let candidate, candidate.key == last.key, candidate.occurrence == last.occurrence {
            run += 1
        } else {
            candidate = last
            run = 1
        }
        if run >= needed {
            ender = last
        } else if let ender, ender.key != last.key || ender.occurrence != last.occurrence {
            self.ender = nil
        }
    }

    /// More of an epoch arrived after its learned last sentence.
    mutating func enderFailed() {
        ender = nil
        candidate = nil
        run = 0
        needed = min(needed * 2, 64)
    }

    /// Forgets everything (the input may now come from another receiver).
    mutating func forget() {
        self = NMEACycle()
    }
}
