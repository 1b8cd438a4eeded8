/// Fixed-point decimal text for coordinates and measurements: correctly
/// rounded, never an exponent, never `-0`, never NaN or infinity.
///
/// `"\(x)"` gives the shortest text that round-trips a `Double`, which for
/// 35.681199 is fine but for 1e-7 is `1e-07`; the log format wants a fixed
/// number of decimals instead, rounded from the exact binary value (so
/// `1.00000005`, stored as 1.0000000499999…, becomes `1.0000000`).
public enum FixedDecimal {
    /// Powers of ten that are exact in a `Double`.
    private static let scales: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// The value rounded to `decimals` places (half away from zero on exact
    /// ties), as an integer count of 10^-decimals units, or `nil` when the
    /// value is not finite or too large for exact integer arithmetic.
    public static func scaled(_ value: Double, decimals: Int) -> Int64? {
        guard value.isFinite, decimals >= 0, decimals < scales.count else { return nil }
        let scale = scales[decimals]
        let product = value * scale
        guard abs(product) < 4.0e15 else { return nil }
        // The product is rounded; the fused multiply-add recovers exactly what
        // rounding lost, which decides the few cases where the rounded product
        // lands on a tie the exact value does not sit on.
        let lost = (-product).addingProduct(value, scale)
        var rounded = product.rounded(.down)
        let fraction = product - rounded  // exact: both within one unit of each other
        if fraction > 0.5 || (fraction == 0.5 && (lost > 0 || (lost == 0 && product > 0))) {
            rounded += 1
        }
        return Int64(rounded)
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
        guard value.isFinite else { return false }
        let places = max(0, min(decimals, scales.count - 1))
        guard let units = scaled(value, decimals: places) else {
            // Astronomically large: no receiver reports this, but say it plainly.
            out.append(contentsOf: "\(value)".utf8)
            return true
        }
        if units < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = units.magnitude
        var divisor: UInt64 = 1
        for _ in 0..<places { divisor *= 10 }
        appendDecimal(magnitude / divisor, to: &out)
        guard places > 0 else { return true }
        var fraction = magnitude % divisor
        var digits = places
        let keep = max(0, min(minimumDecimals ?? places, places))
        while digits > keep, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        guard digits > 0 else { return true }
        out.append(UInt8(ascii: "."))
        appendDecimal(fraction, width: digits, to: &out)
        return true
    }

    /// Appends an unsigned integer in decimal, zero-padded to `width` digits.
    static func appendDecimal(_ value: UInt64, width: Int = 1, to out: inout [UInt8]) {
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        withUnsafeMutableBytes(of: &buffer) { raw in
            var n = value
            var i = raw.count
            repeat {
                i -= 1
                raw[i] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            } while n > 0 && i > 0
            while raw.count - i < width && i > 0 {
                i -= 1
                raw[i] = UInt8(ascii: "0")
            }
            out.append(contentsOf: raw[i...])
        }
    }
}
