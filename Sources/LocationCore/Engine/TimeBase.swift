import LocationProtocol

/// The receiver's time line as the engine has seen it (docs/authorization.md
/// §4, step 4, and "Receiver time"). Fix times only ever name epochs:
/// they decide "the same epoch again", never a timer.
///
/// Usable fixes arrive with non-decreasing times within one *time base*. A
/// fix older than the last one seen starts a new base (the receiver's clock
/// stepped back, gpsd was restarted on an older recording, `gpsfake` looped
/// its file, the epoch before was dated a year ahead): that fix and the ones
/// after it are delivered as usual, and the jump is reported once. A fix far
/// ahead of the last one is simply newer; coming back from it is a new base.
struct TimeBase: Sendable, Hashable {
    /// Which base the last usable fix belongs to; starts at 0 and grows by one per jump back.
    private(set) var id = 0
    /// Fix time (UTC seconds) of the last usable fix.
    private(set) var lastTime: Double?
    /// Jumps back seen since the engine started.
    private(set) var jumps = 0
    /// The latest jump back, if any.
    private(set) var lastJump: TimeJump?

    /// Takes the next usable fix's time (finite); returns the jump when it starts a new base.
    mutating func observe(_ time: Double, now: Double) -> TimeJump? {
        defer { lastTime = time }
        guard let last = lastTime, time < last else { return nil }
        id += 1
        jumps += 1
        let jump = TimeJump(from: last, to: time, at: now)
        lastJump = jump
        return jump
    }
}
