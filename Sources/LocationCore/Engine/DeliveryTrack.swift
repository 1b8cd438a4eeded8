import LocationProtocol

/// One client's record of what the fix path did with each fix (docs/authorization.md §4):
/// the last epoch delivered (for "the same epoch again"), when it was
/// delivered on the engine's monotonic clock (for `status`'s "delivering"),
/// and every fix not delivered, counted by reason.
struct DeliveryTrack: Sendable, Hashable {
    /// Fix time (UTC seconds) of the last delivered fix.
    private(set) var lastTime: Double?
    /// The time base that fix belongs to.
    private(set) var lastBase = 0
    /// Engine `now` (monotonic) of the last delivery.
    private(set) var lastAt: Double?
    /// Fixes delivered since the engine started.
    private(set) var delivered = 0
    /// Fixes not delivered, by reason.
    private(set) var drops = DropCounters()
    /// Why the latest fix was not delivered; `nil` when it was (or before any fix).
    private(set) var lastDrop: DropReason?
    /// The horizontal error of the latest fix the accuracy gate stopped.
    private(set) var lastGatedError: Double?

    /// Whether `time` in base `base` is an epoch this client already has: the same time in the same
    /// base, or the same time from another receiver (a client's log never holds one epoch twice, from
    /// two receivers, when its receiver changes).
    @inline(__always)
    func isSameEpoch(_ time: Double, base: Int) -> Bool {
        lastTime == time && (lastBase == base || !ReceiverTimeBases.sameReceiver(lastBase, base))
    }

    /// A fix was delivered.
    mutating func delivered(time: Double, base: Int, now: Double) {
        lastTime = time
        lastBase = base
        lastAt = now
        delivered += 1
        lastDrop = nil
    }

    /// A fix delivered an epoch already delivered before (a reduced `locate` within the interval gets
    /// the coarse fix it already had): a delivery, but not a new epoch.
    mutating func deliveredAgain(now: Double) {
        lastAt = now
        delivered += 1
        lastDrop = nil
    }

    /// A fix was not delivered, for `reason`.
    @inline(__always)
    mutating func drop(_ reason: DropReason) {
        drops[reason] += 1
        lastDrop = reason
    }

    /// A fix of a receiver this client does not follow: counted, but not "the latest fix" its `why`
    /// describes, which is its own receiver's.
    @inline(__always)
    mutating func otherReceiver() {
        drops[.otherReceiver] += 1
    }

    /// The accuracy gate stopped a fix whose estimate was `error` metres.
    mutating func gated(error: Double) {
        drop(.accuracyGate)
        lastGatedError = error
    }
}
