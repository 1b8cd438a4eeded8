/// Fixed-point decimal text for coordinates and measurements: correctly
/// rounded, never an exponent, never `-0`, never NaN or infinity.
///
/// `"\(x)"` gives the shortest text that round-trips a `Double`, which for
/// 35.681199 is fine but for 1e-7 is `1e-07`; the log format wants a fixed
/// number of decimals instead, rounded from the exact binary value (so
/// `1.00000005`, stored as 1.0000000499999…, becomes `1.0000000`).
public enum FixedDecimal {
    /// Most decimals written; more are written as this many.
    @usableFromInline static let maximumDecimals = 9

    /// The longest text `write` produces: a sign, 16 integer digits, the point
    /// and 9 decimals (below 4e15 units), or Swift's shortest text of an
    /// astronomically large value (at most 24 bytes, `-1.7976931348623157e+308`).
    static let maximumLength = 32

    /// 10^`exponent` (0...19).
    @inlinable @inline(__always)
    static func powerOfTen(_ exponent: Int) -> UInt64 {
        var power: UInt64 = 1
        for _ in 0..<exponent { power &*= 10 }
        return power
    }

    /// The value rounded to `decimals` places (half away from zero on exact
    /// ties), as an integer count of 10^-decimals units, or `nil` when the
    /// value is not finite or too large for exact integer arithmetic.
    @inlinable @inline(__always)
    public static func scaled(_ value: Double, decimals: Int) -> Int64? {
        guard value.isFinite, decimals >= 0, decimals <= maximumDecimals else { return nil }
        let scale = Double(powerOfTen(decimals))  // exact: below 2^53
        let product = value * scale
        guard abs(product) < 4.0e15 else { return nil }
        // The product is rounded; the fused multiply-add recovers exactly what
        // rounding lost, which decides the few cases where the rounded product
        // lands on a tie the exact value does not sit on.
        // Rounded as a magnitude: its fraction is exact (below 1 it is the
        // magnitude itself; from 1 up, the two are within a factor of two),
        // where `product - floor(product)` is not for products just above
        // -0.5 (-0.49999999999999994 gave 0.5, then -1).
        let lost = (-product).addingProduct(value, scale)
        let magnitude = abs(product)
        var rounded = magnitude.rounded(.down)
        let fraction = magnitude - rounded
        // Half away from zero: up on a tie unless the exact magnitude is below it.
        if fraction > 0.5 || (fraction == 0.5 && (product > 0 ? lost >= 0 : lost <= 0)) {
            rounded += 1
        }
        return Int64(product < 0 ? -rounded : rounded)
    }

    /// `value` with exactly `decimals` places (`35.6811990`), or with trailing
    /// zeros trimmed down to `minimumDecimals` places (`40.0`, `0.26`).
    /// Returns `nil` for NaN and infinities, which callers omit.
    public static func format(_ value: Double, decimals: Int, minimumDecimals: Int? = nil) -> String? {
        var bytes: [UInt8] = []
        guard append(value, decimals: decimals, minimumDecimals: minimumDecimals, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` as `format` writes it; returns `false` (appending
    /// nothing) for NaN and infinities.
    @discardableResult
    public static func append(_ value: Double, decimals: Int, minimumDecimals: Int? = nil, to out: inout [UInt8]) -> Bool {
        ByteCursor.append(to: &out, capacity: maximumLength) { cursor in
            write(value, decimals: decimals, minimumDecimals: minimumDecimals, to: &cursor)
        }
    }

    /// Writes `value` as `format` writes it (at most `maximumLength` bytes);
    /// returns `false` (writing nothing) for NaN and infinities.
    ///
    /// Always inlined: where `decimals` is a constant (the log line's
    /// coordinates and measurements), the powers of ten and the divisions by
    /// them fold into multiplications.
    @inlinable @inline(__always)
    @discardableResult
    package static func write(_ value: Double, decimals: Int, minimumDecimals: Int? = nil, to cursor: inout ByteCursor) -> Bool {
        guard value.isFinite else { return false }
        let places = max(0, min(decimals, maximumDecimals))
        guard let units = scaled(value, decimals: places) else {
            writeLarge(value, to: &cursor)
            return true
        }
        if units < 0 { cursor.put(UInt8(ascii: "-")) }
        let magnitude = units.magnitude
        let divisor = powerOfTen(places)
        cursor.putDigits(magnitude / divisor)
        guard places > 0 else { return true }
        // Every decimal, then back over the zeros not kept (and the point, if all go).
        let keep = max(0, min(minimumDecimals ?? places, places))
        cursor.put(UInt8(ascii: "."))
        cursor.putDigits(magnitude % divisor, width: places)
        if keep < places, cursor.dropTrailing(UInt8(ascii: "0"), atMost: places - keep) == places {
            _ = cursor.dropTrailing(UInt8(ascii: "."), atMost: 1)
        }
        return true
    }

    /// Astronomically large: no receiver reports this, but say it plainly.
    @inline(never) @usableFromInline
    static func writeLarge(_ value: Double, to cursor: inout ByteCursor) {
        cursor.put(contentsOf: "\(value)")
    }

    /// Appends an unsigned integer in decimal, zero-padded to `width` digits
    /// (at most 24).
    package static func appendDecimal(_ value: UInt64, width: Int = 1, to out: inout [UInt8]) {
        ByteCursor.append(to: &out, capacity: 24) { cursor in
            cursor.putDigits(value, minimumWidth: min(width, 24))
        }
    }
}
