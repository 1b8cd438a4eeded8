import LocationValues

/// How good one receiver's latest usable fix is, for choosing between
/// receivers (docs/sources.md, "Several receivers"): its fix mode, then its
/// horizontal error estimate. Pure values; `ReceiverChoice` keeps the state.
public struct ReceiverQuality: Sendable, Hashable {
    /// 2D or 3D.
    public var mode: FixMode
    /// The horizontal error estimate in metres, when the receiver gave one.
    public var horizontalError: Double?

    /// A quality from its parts.
    public init(mode: FixMode, horizontalError: Double?) {
        self.mode = mode
        self.horizontalError = horizontalError
    }

    /// The quality of a usable fix.
    public init(_ fix: Fix) {
        self.init(mode: fix.mode, horizontalError: fix.horizontalError)
    }
}

/// The ranking rule, one table (docs/sources.md): a 3D fix beats a 2D one;
/// within a mode, a fix with an estimate beats one without; between two
/// estimates the smaller wins. "Clearly better" — what it takes to leave a
/// receiver that still reports — is stricter: a higher mode, or an estimate
/// against none, or an estimate at most `1/factor` of the other's and at
/// least `margin` metres smaller.
public enum ReceiverRank {
    /// How a challenger compares with the receiver in use.
    public enum Verdict: Sendable, Hashable {
        /// Better by a clear mode or estimate step; `metres` is how much smaller its estimate is, when both have one.
        case clearlyBetter(metres: Double?)
        /// Better, but not by enough to switch.
        case slightlyBetter
        /// As good or worse.
        case notBetter
    }

    /// Factor by which a challenger's estimate must be smaller (PX4's and ArduPilot's switching also asks for a clear step).
    public static let factor = 2.0
    /// And by at least this many metres, so that 1.2 m against 2.6 m is not worth a 1.4 m jump in the track.
    public static let margin = 5.0

    /// Orders two qualities: true when `a` ranks above `b`.
    public static func ranksAbove(_ a: ReceiverQuality, _ b: ReceiverQuality) -> Bool {
        if a.mode != b.mode { return a.mode.rawValue > b.mode.rawValue }
        switch (a.horizontalError, b.horizontalError) {
        case (let x?, let y?): return x < y
        case (.some, nil): return true
        case (nil, _): return false
        }
    }

    /// How `challenger` compares with `current`.
    public static func compare(_ challenger: ReceiverQuality, with current: ReceiverQuality) -> Verdict {
        if challenger.mode != current.mode {
            return challenger.mode.rawValue > current.mode.rawValue ? .clearlyBetter(metres: nil) : .notBetter
        }
        switch (challenger.horizontalError, current.horizontalError) {
        case (let x?, let y?):
            if x * factor <= y && y - x >= margin { return .clearlyBetter(metres: y - x) }
            return x < y ? .slightlyBetter : .notBetter
        case (.some, nil):
            return .clearlyBetter(metres: nil)
        case (nil, _):
            return .notBetter
        }
    }
}
