/// Each receiver's own time line (a `TimeBase` per receiver): receiver B's
/// fix is never compared with receiver A's clock, so two receivers whose
/// clocks differ, or a failover from one to the other, are no time jump.
/// Every base of every receiver has an id of its own, which a client's
/// "same epoch again" check compares: the receiver's index in the high 32
/// bits, its base count in the low ones, so `sameReceiver` is a shift.
struct ReceiverTimeBases: Sendable, Hashable {
    private var bases: [String: TimeBase] = [:]
    /// Each receiver's current base id, unique across receivers.
    private var ids: [String: Int] = [:]
    /// Jumps back of every receiver.
    private(set) var jumps = 0
    /// The latest jump back of any receiver.
    private(set) var lastJump: TimeJump?

    /// Takes `device`'s next usable fix time; returns the id of the base it belongs to and the jump it starts.
    mutating func observe(_ device: String, time: Double, now: Double) -> (base: Int, jump: TimeJump?) {
        var base = bases[device] ?? TimeBase()
        let jump = base.observe(time, now: now)
        bases[device] = base
        if let id = ids[device] {
            if jump != nil { ids[device] = id + 1 }
        } else {
            ids[device] = ids.count << 32
        }
        if let jump {
            jumps += 1
            lastJump = jump
        }
        return (ids[device] ?? 0, jump)
    }

    /// `device`'s current base id, or `nil` before its first usable fix.
    func id(of device: String) -> Int? {
        ids[device]
    }

    /// Whether two base ids belong to the same receiver.
    @inline(__always)
    static func sameReceiver(_ a: Int, _ b: Int) -> Bool {
        a >> 32 == b >> 32
    }
}
