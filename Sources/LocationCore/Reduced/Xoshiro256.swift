import Glibc

/// xoshiro256** (Blackman and Vigna): a small, fast, seedable random source
/// whose whole state is four words, so it can be saved with a client's state.
///
/// Encoded as four 16-digit hexadecimal strings: JSON numbers are doubles and
/// would lose the low bits of a 64-bit word.
public struct Xoshiro256: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's state (never all zero).
    public private(set) var state: (UInt64, UInt64, UInt64, UInt64)

    /// A generator seeded from one word through SplitMix64, as the authors recommend.
    public init(seed: UInt64) {
        var mixer = SplitMix64(state: seed)
        state = (mixer.next(), mixer.next(), mixer.next(), mixer.next())
        if state == (0, 0, 0, 0) { state.0 = 0x9E37_79B9_7F4A_7C15 }
    }

    /// A generator resuming from a saved state; `nil` for the all-zero state, which xoshiro cannot leave.
    public init?(state: (UInt64, UInt64, UInt64, UInt64)) {
        guard state != (0, 0, 0, 0) else { return nil }
        self.state = state
    }

    /// The next 64 random bits.
    @inline(__always)
    public mutating func next() -> UInt64 {
        let result = (state.1 &* 5).rotatedLeft(7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = state.3.rotatedLeft(45)
        return result
    }

    /// A uniform double in (0, 1]: never 0, so its logarithm is finite.
    public mutating func nextOpenUnit() -> Double {
        Double((next() >> 11) + 1) * 0x1p-53
    }

    /// Two independent standard normal values (Box–Muller).
    public mutating func nextGaussianPair() -> (Double, Double) {
        let u1 = nextOpenUnit()
        let u2 = nextOpenUnit()
        let r = (-2 * log(u1)).squareRoot()
        let theta = 2 * Double.pi * u2
        return (r * cos(theta), r * sin(theta))
    }

    /// Equal when the states are equal.
    public static func == (lhs: Xoshiro256, rhs: Xoshiro256) -> Bool { lhs.state == rhs.state }

    /// Hashes the state.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(state.0)
        hasher.combine(state.1)
        hasher.combine(state.2)
        hasher.combine(state.3)
    }

    /// A word as 16 hexadecimal digits (how `state.json` keeps the state).
    static func hex(_ word: UInt64) -> String {
        let digits = String(word, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ k: UInt64) -> UInt64 { (self << k) | (self >> (64 - k)) }
}
