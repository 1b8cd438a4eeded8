import LocationProtocol
import LocationValues

/// Each receiver's own time line (a `TimeBase` per receiver): receiver B's
/// fix is never compared with receiver A's clock, so two receivers whose
/// clocks differ, or a failover from one to the other, are no time jump.
/// Every base of every receiver has an id of its own, which a client's
/// "same epoch again" check compares: the receiver's index in the high 32
/// bits, its base count in the low ones, so `sameReceiver` is a shift.
struct ReceiverTimeBases: Sendable, Hashable {
    /// One receiver's time line and its current base id.
    private struct Line: Sendable, Hashable {
        var base = TimeBase()
        var id: Int
    }

    /// Each receiver's line; its slot is the high half of its base ids, so ids are unique across receivers.
    private var lines = ReceiverTable<Line>()
    /// Jumps back of every receiver.
    private(set) var jumps = 0
    /// The latest jump back of any receiver.
    private(set) var lastJump: TimeJump?

    /// Takes `device`'s next usable fix time; returns the id of the base it belongs to and the jump it starts.
    mutating func observe(_ device: String, time: Double, now: Double) -> (base: Int, jump: TimeJump?) {
        let next = lines.names.count << 32
        let slot = lines.slot(of: device, adding: Line(id: next))
        let jump = lines.values[slot].base.observe(time, now: now)
        if let jump {
            lines.values[slot].id += 1
            jumps += 1
            lastJump = jump
        }
        return (lines.values[slot].id, jump)
    }

    /// `device`'s current base id, or `nil` before its first usable fix.
    func id(of device: String) -> Int? {
        lines[device]?.id
    }

    /// Whether two base ids belong to the same receiver.
    @inline(__always)
    static func sameReceiver(_ a: Int, _ b: Int) -> Bool {
        a >> 32 == b >> 32
    }
}
