/// How often a refused program peer is written to the audit log and the
/// journal. Every refusal is counted (`ProgramCounts.refused`, in status), but
/// the audit log syncs each record to disk under the engine owner's lock, so
/// a user outside `allow_users` who reconnects in a loop must not turn into a
/// disk write per attempt: the first refusal of a peer (client, socket, uid)
/// is recorded at once, repeats within `window` seconds are only counted, and
/// the first refusal after the window is recorded with how many were not.
///
/// Not thread-safe: the program server's one thread owns it.
struct RefusalThrottle {
    /// Seconds between two records of the same peer's refusals.
    static let window: Double = 60
    /// Peers remembered at most; past it, peers whose window is over are forgotten
    /// (and if every one is recent, the oldest is).
    static let capacity = 1024

    struct Key: Hashable {
        var client: String
        var socket: String
        var uid: UInt32
    }

    private var peers: [Key: (recordedAt: Double, unrecorded: Int)] = [:]

    /// Whether this refusal is to be recorded now: nil if not (it is counted as
    /// unrecorded), otherwise how many refusals of the same peer went unrecorded since its last record.
    mutating func record(_ key: Key, now: Double) -> Int? {
        if let seen = peers[key], now - seen.recordedAt < Self.window, now >= seen.recordedAt {
            peers[key] = (seen.recordedAt, seen.unrecorded + 1)
            return nil
        }
        let unrecorded = peers[key]?.unrecorded ?? 0
        if peers[key] == nil && peers.count >= Self.capacity { forgetOld(now: now) }
        peers[key] = (now, 0)
        return unrecorded
    }

    private mutating func forgetOld(now: Double) {
        peers = peers.filter { now - $0.value.recordedAt < Self.window && now >= $0.value.recordedAt }
        if peers.count >= Self.capacity, let oldest = peers.min(by: { $0.value.recordedAt < $1.value.recordedAt }) {
            peers[oldest.key] = nil
        }
    }
}
