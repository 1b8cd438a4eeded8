/// How many times each sentence key (the five-byte tag, e.g. `GNGSA`)
/// occurred: a small table in buffers allocated once and reused.
struct NMEAKeyCounts: Sendable {
    /// Distinct keys kept; a receiver's cycle has far fewer.
    static let capacity = 24

    private var keys: [UInt64] = Array(repeating: 0, count: NMEAKeyCounts.capacity)
    private var counts: [UInt8] = Array(repeating: 0, count: NMEAKeyCounts.capacity)
    private(set) var distinct = 0

    init() {}

    /// The tag of a sentence as a number: its five bytes.
    static func key(_ tag: NMEAField) -> UInt64 {
        var key: UInt64 = 0
        for k in 0..<tag.count { key = key << 8 | UInt64(tag[k]) }
        return key
    }

    /// Occurrences of `key` (0 if never seen).
    func count(of key: UInt64) -> Int {
        for k in 0..<distinct where keys[k] == key { return Int(counts[k]) }
        return 0
    }

    /// Counts one more `key`; returns its new count.
    @discardableResult
    mutating func add(_ key: UInt64) -> Int {
        for k in 0..<distinct where keys[k] == key {
            if counts[k] < UInt8.max { counts[k] += 1 }
            return Int(counts[k])
        }
        guard distinct < keys.count else { return 1 }
        keys[distinct] = key
        counts[distinct] = 1
        distinct += 1
        return 1
    }

    /// Raises `key`'s count to `count` if it is lower.
    mutating func raise(_ key: UInt64, to count: Int) {
        let value = UInt8(clamping: count)
        for k in 0..<distinct where keys[k] == key {
            counts[k] = max(counts[k], value)
            return
        }
        guard distinct < keys.count else { return }
        keys[distinct] = key
        counts[distinct] = value
        distinct += 1
    }

    /// Raises every count here to at least the count in `other`.
    mutating func raise(toCover other: NMEAKeyCounts) {
        for k in 0..<other.distinct { raise(other.keys[k], to: Int(other.counts[k])) }
    }

    /// Empties the table, keeping its buffers.
    mutating func removeAll() { distinct = 0 }
}
