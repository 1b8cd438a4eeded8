/// A step back of the receiver's time: the first fix of a new time base.
public struct TimeJump: Sendable, Hashable {
    /// Fix time (UTC seconds) of the last fix of the old base.
    public var from: Double
    /// Fix time (UTC seconds) of the first fix of the new base.
    public var to: Double
    /// Engine `now` (monotonic seconds) when it was seen.
    public var at: Double

    /// A jump from its parts.
    public init(from: Double, to: Double, at: Double) {
        self.from = from
        self.to = to
        self.at = at
    }

    /// How far back, in seconds (positive).
    public var seconds: Double { from - to }

    /// `52 min`, `0.302 s`: whole units from 10 s up, milliseconds below.
    public var size: String {
        if seconds >= 10 { return TextFormat.duration(seconds) }
        let ms = Int((seconds * 1000).rounded())
        let text = "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())"
        return text + " s"
    }

    /// `receiver time went back 52 min (to 2026-03-14 13:05:01 UTC); a new time base, logging continues`.
    public var sentence: String {
        "receiver time went back \(size) (to \(TextFormat.dateTime(to))); a new time base, logging continues"
    }
}
