/// Counts of what an `NMEAParser` has read, for `locationd replay`'s summary
/// and the device source's diagnostics.
///
/// Every sentence framed is counted once, by its fate, so that
/// `sentences == badChecksums + malformed + ignored + lateSentences + used`.
/// Pieces of text that never became a sentence (no line end, a bad leader,
/// an unprintable byte) are `fragments`, counted apart.
public struct NMEAStatistics: Sendable, Hashable {
    /// Complete sentences framed (`$` … LF), whatever became of them.
    public var sentences = 0
    /// Sentences whose checksum did not match.
    public var badChecksums = 0
    /// Sentences that are over-long, or of a known type with too few fields.
    public var malformed = 0
    /// Well-formed sentences of types the phrase table (`NMEAPhrase`) has no
    /// row for (TXT, proprietary and marine sentences, …).
    public var ignored = 0
    /// Sentences whose fields went into an epoch (emitted or dropped undated),
    /// and GSVs (read beside the epochs, for the sky view).
    public var used = 0
    /// Of `used`, timed sentences whose time was unreadable: their other fields count.
    public var unreadableTimes = 0
    /// Pieces of text that were not sentences: truncated, interrupted and never
    /// resumed, broken by an unprintable byte or a CR without LF, or after a bad leader.
    public var fragments = 0
    /// Whether every sentence is counted once: the sum above holds.
    public var addsUp: Bool { sentences == badChecksums + malformed + ignored + lateSentences + used }
    /// Epochs turned into fixes (any mode).
    public var epochs = 0
    /// Of those, fixes that are usable (2D/3D, position, time).
    public var usableFixes = 0
    /// Epochs dropped because no date was known yet (no valid RMC or ZDA so
    /// far) or the receiver gave no time at all.
    public var undatedEpochs = 0
    /// Sentences dropped because their epoch had already been emitted, because
    /// the receiver repeated an epoch it had already sent, or because it sent
    /// the same line twice in a row.
    public var lateSentences = 0

    /// All zero.
    public init() {}

    /// The counts of two inputs together (a replay of several recordings).
    public static func + (lhs: Self, rhs: Self) -> Self {
        var sum = lhs
        sum.sentences += rhs.sentences
        sum.badChecksums += rhs.badChecksums
        sum.malformed += rhs.malformed
        sum.ignored += rhs.ignored
        sum.epochs += rhs.epochs
        sum.usableFixes += rhs.usableFixes
        sum.undatedEpochs += rhs.undatedEpochs
        sum.lateSentences += rhs.lateSentences
        sum.used += rhs.used
        sum.unreadableTimes += rhs.unreadableTimes
        sum.fragments += rhs.fragments
        return sum
    }
}
